import "server-only";
import { generateText } from "ai";
import type { App } from "@/db/schema";
import { reserveModelCall } from "@/lib/ai/model-budget";
import { defaultModelId, languageModel } from "@/lib/ai/provider";
import type { Session } from "@/lib/auth/session";
import {
  REPAIR_FILES_MAX,
  REPAIR_ITERATIONS_DEFAULT,
  REPAIR_ITERATIONS_MAX,
  REPAIR_ITERATIONS_MIN,
  REPAIR_MAX_OUTPUT_TOKENS,
  REPAIR_MODEL_TIMEOUT_MS,
  RUN_MODEL_RETRIES,
} from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { buildPreview, type PreviewBuild } from "@/lib/space/preview/build";
import type { RepairAnswer, RepairBody } from "@/lib/space/repair-schemas";
import type { ValidationIssue } from "@/lib/space/validate-schemas";
import { issueLine, REPAIR_INSTRUCTIONS, repairedFilesOf, repairPrompt } from "./repair-prompt";
import { versionFiles } from "./service";
import { validateFiles } from "./validate";

// POST /api/apps/{appId}/versions/{versionId}/repair: the validate-and-repair loop. It starts from
// the issues the builder's validation found (only the browser knows the preview's runtime errors),
// and each iteration asks the model to give back the files with issues fixed, applies them to a
// copy of the version's files in memory, and validates that copy again, until it is clean or the
// iterations are used. Nothing is written: the repaired files are the answer, and Apply merges
// them (POST /api/apps/{appId}/merge, as an autofix). Every model call is one of the builder's
// model calls (reserveModelCall), as the chat's are.
//
// The preview's runtime errors cannot be checked again here (the app runs in the browser): one
// stays unresolved while its file is unchanged, and the re-validation after Apply tells the rest.

export const clampIterations = (n: number | undefined) =>
  Math.min(REPAIR_ITERATIONS_MAX, Math.max(REPAIR_ITERATIONS_MIN, n ?? REPAIR_ITERATIONS_DEFAULT));

type FileDetail = RepairAnswer["repairProcessDetails"][number];

/** The files with issues, in the order of their first issue, that exist in `files`. */
function filesWithIssues(issues: ValidationIssue[], files: Map<string, string>): string[] {
  const paths: string[] = [];
  for (const i of issues) if (i.file && files.has(i.file) && !paths.includes(i.file)) paths.push(i.file);
  return paths.slice(0, REPAIR_FILES_MAX);
}

const countIn = (issues: ValidationIssue[], path: string) => issues.filter((i) => i.file === path).length;

export async function repairVersion(
  app: App,
  session: Session,
  versionId: string,
  body: RepairBody,
): Promise<RepairAnswer> {
  const started = performance.now();
  if (body.initialIssues.length === 0) throw new AppError("BAD_REQUEST", "repairNoIssues", "NO_ISSUES");
  if (body.customModel && !session.account?.isAdmin) {
    throw new AppError("FORBIDDEN", "repairCustomModelAdmin", "CUSTOM_MODEL_ADMIN_ONLY");
  }
  const { version, files } = await versionFiles(app, versionId);
  const modelId = body.customModel ?? defaultModelId();
  const iterations = clampIterations(body.iterations);
  const failed = () =>
    new AppError("BAD_GATEWAY", body.customModel ? "repairFailedCustom" : "repairFailed", "MODEL_FAILED");

  const working = new Map(files);
  const details = new Map<string, FileDetail>();
  for (const path of new Set(body.initialIssues.map((i) => i.file))) {
    if (!path || !files.has(path)) continue;
    const n = countIn(body.initialIssues, path);
    details.set(path, {
      fileId: path,
      repairSuccess: false,
      initialIssueCount: n,
      finalIssueCount: n,
      aiRepairs: [],
    });
  }

  let issues = body.initialIssues;
  let iterationsPerformed = 0;
  let repairMs = 0;
  let validationMs = 0;
  let build: PreviewBuild | undefined;
  for (let iteration = 1; iteration <= iterations; iteration++) {
    const targets = filesWithIssues(issues, working);
    if (targets.length === 0) break;
    // 503 when no model is configured (before a point of the budget is taken).
    const model = languageModel(modelId);
    // 429 with the limit's message when the builder's model calls are spent: on the first call the
    // repair is refused, later the result so far is the answer.
    try {
      await reserveModelCall(session);
    } catch (err) {
      if (iteration === 1) throw err;
      break;
    }
    const asked = performance.now();
    let text: string;
    try {
      ({ text } = await generateText({
        model,
        instructions: REPAIR_INSTRUCTIONS,
        prompt: repairPrompt(issues, working, targets),
        temperature: 0,
        maxOutputTokens: REPAIR_MAX_OUTPUT_TOKENS,
        maxRetries: RUN_MODEL_RETRIES,
        timeout: REPAIR_MODEL_TIMEOUT_MS,
      }));
    } catch (err) {
      logError("repair: the model call failed", { err, modelId, appId: app.id });
      if (iteration === 1) throw failed();
      break;
    }
    const took = Math.round(performance.now() - asked);
    repairMs += took;
    iterationsPerformed = iteration;
    const given = repairedFilesOf(text, new Set(targets));
    for (const path of targets) {
      const out = given.get(path);
      const changed = out !== undefined && out !== working.get(path);
      if (changed) working.set(path, out);
      details.get(path)?.aiRepairs.push({
        success: changed,
        modelUsed: modelId,
        processingTimeMs: took,
        issueMessage: issues
          .filter((i) => i.file === path)
          .map(issueLine)
          .join("\n"),
        outputContent: out ?? null,
        iteration,
      });
    }

    const checking = performance.now();
    const checked = await validateFiles(working, {
      build: async () => {
        build = await buildPreview(working);
        return build;
      },
    });
    validationMs += Math.round(performance.now() - checking);
    // A runtime error stays while its file is as it was (only the browser can run it again).
    const carried = issues.filter(
      (i) => i.detectorId === "runtime" && (!i.file || working.get(i.file) === files.get(i.file)),
    );
    issues = [...checked.issues, ...carried];
  }

  build ??= await buildPreview(working);
  for (const d of details.values()) {
    d.finalIssueCount = countIn(issues, d.fileId);
    d.repairSuccess = d.finalIssueCount === 0 && working.get(d.fileId) !== files.get(d.fileId);
  }
  const repairedFiles = [...working]
    .filter(([path, content]) => files.get(path) !== content)
    .map(([path, content]) => ({ id: path, path, content }));
  return {
    initialIssues: body.initialIssues,
    unresolvedIssues: issues,
    repairedFiles,
    repairProcessDetails: [...details.values()],
    iterationsPerformed,
    executionTimeMs: Math.round(performance.now() - started),
    previousVersionId: version.id,
    timingBreakdown: { repairOnlyTimeMs: repairMs, validationTimeMs: validationMs },
    appBundle: build.ok
      ? { ok: true, jsBytes: Buffer.byteLength(build.js), cssBytes: Buffer.byteLength(build.css) }
      : { ok: false, jsBytes: 0, cssBytes: 0 },
  };
}
