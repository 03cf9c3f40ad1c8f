import { ActionParser, stripFence } from "@/lib/space/action-parser";
import type { ValidationIssue } from "@/lib/space/validate-schemas";

// What the repair asks the model, and how its answer is read. The model gets the issues and the
// files they are in, and gives each file back whole, in the chat's own action syntax
// (lib/space/action-parser.ts reads it): anything else in its answer is ignored.

/** The first line of the repair's instructions (the local model server knows a repair by it). */
export const REPAIR_MARKER = "You repair the files of a space app (repair v1).";

export const REPAIR_INSTRUCTIONS = [
  REPAIR_MARKER,
  "The app is React (JSX) pages, components, services and JSON entity schemas, built with esbuild.",
  "You are given the issues a validation found, each with its file and line, the paths of every file",
  "of the app with the names each exports, and the files with issues. Fix every issue, changing",
  "nothing else.",
  "Answer with each file you changed, whole, exactly like this, and nothing else:",
  '<action type="edit_file" path="pages/Home.jsx">',
  "...the whole new content of the file...",
  "</action>",
  "Never use a code fence. Never write a file you did not change. Import only files that exist.",
].join("\n");

/** An issue as the prompt tells it: "pages/Home.jsx:12 [no-undef] 'x' is not defined." */
export const issueLine = (i: ValidationIssue) =>
  `${i.file ?? "(no file)"}${i.line ? `:${i.line}` : ""} [${i.detectorId}] ${i.message}`;

/** The names a script exports (so the model imports what exists): "default Home", "formatNumber". */
export function exportsOf(content: string): string[] {
  const names: string[] = [];
  for (const m of content.matchAll(
    /^export\s+(default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/gm,
  )) {
    names.push(m[1] ? `default ${m[2]}` : m[2]!);
  }
  return names;
}

/** The request: issues, every path (with what it exports), then the files to fix. */
export function repairPrompt(
  issues: ValidationIssue[],
  files: Map<string, string>,
  targets: string[],
): string {
  const paths = [...files.keys()].sort().map((p) => {
    const names = /\.(jsx?|tsx?|mjs)$/.test(p) ? exportsOf(files.get(p)!) : [];
    return names.length ? `${p} exports: ${names.join(", ")}` : p;
  });
  return [
    "<issues>",
    ...issues.map(issueLine),
    "</issues>",
    "<paths>",
    ...paths,
    "</paths>",
    ...targets.map((p) => `<file path="${p}">\n${files.get(p)}</file>`),
  ].join("\n");
}

/**
 * The whole files of the model's answer, by path: its complete edit_file or add_file actions on
 * the paths it was asked to fix (the last one wins). A cut action, or one on another file, is dropped.
 */
export function repairedFilesOf(answer: string, allowed: ReadonlySet<string>): Map<string, string> {
  const parser = new ActionParser();
  parser.push(answer);
  parser.finish();
  const out = new Map<string, string>();
  for (const a of parser.actions) {
    if (a.status !== "complete" || !a.path || !allowed.has(a.path)) continue;
    if (a.type !== "edit_file" && a.type !== "add_file") continue;
    out.set(a.path, stripFence(a.content));
  }
  return out;
}
