import "server-only";
import path from "node:path";
import { entitySchemaOf } from "@/lib/app-data/entity-schema";
import { ENTITY_NAME, VALIDATION_ISSUES_MAX } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { entityNameOf, fileTypeOf, hashContent } from "@/lib/space/files";
import { buildPreview, isPreviewFile, type PreviewBuild } from "@/lib/space/preview/build";
import type { PreviewIssue } from "@/lib/space/preview/types";
import { ACCESS_LEVELS } from "@/lib/space/schemas";
import type { ValidationAnswer, ValidationIssue } from "@/lib/space/validate-schemas";
import { fillTemplate } from "@/lib/text";
import { checkInWorker, type SourceText } from "./run";

// The validation of a space app's files: the detectors, each real.
//  - build: the preview's own esbuild build (syntax errors, imports that resolve to nothing),
//    where esbuild runs in its own process, with its time limit;
//  - rules-of-hooks, exhaustive-deps, no-undef (and lint-syntax for a file the build does not
//    reach): ESLint over the app's JavaScript, in a capped worker thread (run.ts);
//  - entity-schema: each entities/*.json as JSON, as JSON Schema (ajv, strict, in the same
//    worker), then by the data API's own reading of it (lib/app-data/entity-schema.ts) and the
//    rules of our entities (name, access levels, records are objects);
//  - runtime: the errors the preview reported while it ran the version, put on their file and line.

/** A file's component: its name without folder and extension. */
export const componentOf = (file: string) => path.posix.basename(file).replace(/\.[^.]+$/, "");

const SCRIPT = /\.(jsx?|mjs)$/i;
/** The files ESLint reads: the app's JavaScript the preview runs (TypeScript is left to the build). */
const isLinted = (p: string) => SCRIPT.test(p) && isPreviewFile(p);

const MESSAGE_MAX = 1_000;

const issueAt = (
  detectorId: ValidationIssue["detectorId"],
  message: string,
  file: string | null,
  line: number | null,
  severity: ValidationIssue["severity"] = "error",
): ValidationIssue => ({
  // A checker's words about a deep place name its whole path: kept readable.
  message: message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX - 1)}…` : message,
  componentName: file ? componentOf(file) : null,
  file,
  detectorId,
  severity,
  line,
});

/** The build's errors: its details start with "file:line:column" when esbuild knew where. */
function buildIssues(build: PreviewBuild): ValidationIssue[] {
  if (build.ok) return [];
  return build.issues.map((i) => {
    const where = /^(.+?):(\d+):\d+/.exec(i.details);
    const file = where && where[1] !== "entry" ? where[1]! : null;
    return issueAt("build", i.title, file, file ? Number(where![2]) : null);
  });
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The line of the first occurrence of `needle` in `text`, or null. */
function lineOf(text: string, needle: string | RegExp): number | null {
  const at = typeof needle === "string" ? text.indexOf(needle) : (needle.exec(text)?.index ?? -1);
  return at < 0 ? null : text.slice(0, at).split("\n").length;
}

/** Our rules of an entity the JSON Schema check passed: name, records are objects, access levels. */
function entityRuleIssues(file: string, content: string): ValidationIssue[] {
  const name = entityNameOf(file) ?? componentOf(file);
  if (!ENTITY_NAME.test(name)) {
    return [issueAt("entity-schema", fillTemplate(messages.validationEntityName, { name }), file, 1)];
  }
  const schema = JSON.parse(content) as Json;
  const issues: ValidationIssue[] = [];
  if (schema.type !== undefined && schema.type !== "object") {
    issues.push(
      issueAt("entity-schema", messages.validationEntityNotObject, file, lineOf(content, /"type"\s*:/) ?? 1),
    );
  }
  const control = isObject(schema["x-accessControl"]) ? schema["x-accessControl"] : {};
  const perms = isObject(control.permissions) ? control.permissions : {};
  for (const key of ["read", "write"]) {
    const level = perms[key];
    if (level === undefined || (ACCESS_LEVELS as readonly unknown[]).includes(level)) continue;
    const message = fillTemplate(messages.validationEntityAccess, {
      level: JSON.stringify(level),
      allowed: ACCESS_LEVELS.join(", "),
    });
    issues.push(issueAt("entity-schema", message, file, lineOf(content, new RegExp(`"${key}"\\s*:`)) ?? 1));
  }
  // The data API's own reading of the schema (what a record of it is checked against).
  try {
    entitySchemaOf(name, hashContent(content), content);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    issues.push(issueAt("entity-schema", err.message, file, 1));
  }
  return issues;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Where in its component's file a runtime error happened. The preview's bundle carries no source
 * map, so the error's own words say it: the text of a thrown error, the property read from
 * nothing ("reading 'map'"), the name that is not a function or not defined. Null when none of
 * them is in the file.
 */
function runtimeLine(content: string, message: string): number | null {
  const quoted = message.replace(/^\w*Error:\s*/, "");
  const thrown = lineOf(content, new RegExp(`(["'\`])${escapeRegExp(quoted)}\\1`));
  if (thrown) return thrown;
  const reading = /\(reading '([^']+)'\)/.exec(message)?.[1];
  if (reading) return lineOf(content, new RegExp(`(\\.|\\?\\.)${escapeRegExp(reading)}\\b`));
  const notFn = /^([\w$.]+) is not a function/.exec(quoted)?.[1];
  if (notFn) return lineOf(content, new RegExp(`${escapeRegExp(notFn)}\\s*\\(`));
  const notDefined = /^([\w$]+) is not defined/.exec(quoted)?.[1];
  if (notDefined) return lineOf(content, new RegExp(`\\b${escapeRegExp(notDefined)}\\b`));
  return null;
}

/** The preview's runtime errors, each on the file of its component when there is one. */
function runtimeIssues(files: Map<string, string>, reported: PreviewIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of reported) {
    // The build's errors are this validation's own (the build detector); only the running app's count here.
    if (error.source !== "runtime") continue;
    const key = `${error.title}\n${error.componentName}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const file =
      [...files.keys()]
        .filter((p) => isPreviewFile(p) && fileTypeOf(p) !== "entities")
        .sort()
        .find((p) => error.componentName !== null && componentOf(p) === error.componentName) ?? null;
    const line = file ? runtimeLine(files.get(file) ?? "", error.title) : null;
    const issue = issueAt("runtime", error.title, file, line);
    issues.push(file ? issue : { ...issue, componentName: error.componentName });
  }
  return issues;
}

export type ValidateOptions = {
  /** The version's build when the caller has it (the preview's cache); else built here. */
  build?: () => Promise<PreviewBuild>;
  runtimeErrors?: PreviewIssue[];
};

/** Every issue of an app's files (path -> content), errors first, by file and line. */
export async function validateFiles(
  files: Map<string, string>,
  options: ValidateOptions = {},
): Promise<ValidationAnswer> {
  const started = performance.now();
  const lint: SourceText[] = [];
  const entities: SourceText[] = [];
  for (const [p, content] of files) {
    if (isLinted(p)) lint.push({ path: p, content });
    else if (entityNameOf(p) !== null) entities.push({ path: p, content });
  }
  const [build, checked] = await Promise.all([
    options.build ? options.build() : buildPreview(files),
    checkInWorker(lint, entities),
  ]);
  const issues = buildIssues(build);
  const builtWithErrors = new Set(issues.map((i) => i.file));
  const schemaBroken = new Set<string>();
  for (const found of checked) {
    // A file the build already failed on is told once, by the build.
    if (found.detectorId === "lint-syntax" && builtWithErrors.has(found.path)) continue;
    if (found.detectorId === "entity-schema") schemaBroken.add(found.path);
    issues.push(
      issueAt(
        found.detectorId as ValidationIssue["detectorId"],
        found.message,
        found.path,
        found.line,
        found.severity,
      ),
    );
  }
  for (const entity of entities) {
    if (!schemaBroken.has(entity.path)) issues.push(...entityRuleIssues(entity.path, entity.content));
  }
  issues.push(...runtimeIssues(files, options.runtimeErrors ?? []));
  const rank = (i: ValidationIssue) => (i.severity === "error" ? 0 : 1);
  issues.sort(
    (a, b) =>
      rank(a) - rank(b) || (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0),
  );
  return {
    issues: issues.slice(0, VALIDATION_ISSUES_MAX),
    clientExecutionTimeMs: Math.round(performance.now() - started),
  };
}
