import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as mergeRoute from "@/app/api/apps/[appId]/merge/route";
import * as repairRoute from "@/app/api/apps/[appId]/versions/[versionId]/repair/route";
import * as validateRoute from "@/app/api/apps/[appId]/versions/[versionId]/validate/route";
import { counter } from "@/db/queries/rate-limits";
import { listChatPage } from "@/db/queries/space-chat";
import type { App } from "@/db/schema";
import { REPAIR_ITERATIONS_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { currentHead, currentTree } from "@/lib/space/commit";
import { hashContent } from "@/lib/space/files";
import type { RepairAnswer } from "@/lib/space/repair-schemas";
import type { FileChange } from "@/lib/space/schemas";
import type { ValidationAnswer, ValidationIssue } from "@/lib/space/validate-schemas";
import { fillTemplate } from "@/lib/text";
import { repairPrompt } from "@/lib/validation/repair-prompt";
import { validateFiles } from "@/lib/validation/validate";
import { demoRepair } from "../support/demo-repair";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { createSpaceApp, say } from "../support/space";
import { brokenApps, cleanApps, type Files } from "../support/validation-fixtures";

// The repair of a space app version: the real route, the real validation, and the real AI SDK
// client over HTTP to the local OpenAI-compatible server (its demo model fixes undefined names
// and unresolved imports; scripted replies play a model that fails or answers garbage).
// lib/env reads the environment once: set it first.
const server = await startOpenAiServer({ responder: demoResponder });
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

const broken = brokenApps();
const clean = cleanApps();
const fixture = (id: string) => broken.find((a) => a.id === id)!;

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Err = { error?: { code: string; message: string } };

function changesOf(files: Files): FileChange[] {
  return [...files].map(([path, content]) => {
    const entity = /^entities\/(.+)\.json$/.exec(path)?.[1];
    return entity ? { type: "add_entity", name: entity, content } : { type: "add_file", path, content };
  });
}

/** A builder's space app whose one version is the broken fixture `id`, and that version's issues. */
async function brokenVersion(id: string, builder?: Builder) {
  const who = builder ?? (await createBuilder());
  const app = await createSpaceApp(who.account.accountId);
  const { versionId } = await say(app, who.account.accountId, {
    user: "Make it",
    answer: "Done",
    changes: changesOf(fixture(id).files),
  });
  const validated = await call<ValidationAnswer>(validateRoute.POST, {
    path: `/api/apps/${app.id}/versions/${versionId}/validate`,
    params: { appId: app.id, versionId: versionId! },
    token: who.token,
    body: {},
  });
  expect(validated.status).toBe(200);
  return { who, app, versionId: versionId!, issues: validated.json.issues };
}

const repair = (who: Builder, app: App, versionId: string, body: unknown) =>
  call<RepairAnswer & Err>(repairRoute.POST, {
    path: `/api/apps/${app.id}/versions/${versionId}/repair`,
    params: { appId: app.id, versionId },
    token: who.token,
    body,
  });

describe("POST /api/apps/{appId}/versions/{versionId}/repair", () => {
  it("repairs an undefined name in one iteration: the result validates clean, nothing is written, Apply merges it as an autofix", async () => {
    const { who, app, versionId, issues } = await brokenVersion("undefined-typo");
    expect(issues).toHaveLength(1);
    const headBefore = await currentHead(app.id);

    const res = await repair(who, app, versionId, { initialIssues: issues, iterations: 2 });
    expect(res.status).toBe(200);
    const r = res.json;
    const file = "pages/Stats.jsx";
    const fixed = clean.get("reading-list")!.get(file)!;
    expect(r.initialIssues).toEqual(issues);
    expect(r.unresolvedIssues).toEqual([]);
    expect(r.iterationsPerformed).toBe(1);
    expect(r.previousVersionId).toBe(versionId);
    expect(r.repairedFiles).toEqual([{ id: file, path: file, content: fixed }]);
    expect(r.repairProcessDetails).toEqual([
      {
        fileId: file,
        repairSuccess: true,
        initialIssueCount: 1,
        finalIssueCount: 0,
        aiRepairs: [
          expect.objectContaining({
            success: true,
            modelUsed: "gpt-4o-mini",
            outputContent: fixed,
            iteration: 1,
            issueMessage: expect.stringContaining("'totl' is not defined"),
          }),
        ],
      },
    ]);
    expect(r.appBundle.ok).toBe(true);
    expect(r.appBundle.jsBytes).toBeGreaterThan(0);
    expect(r.executionTimeMs).toBeGreaterThanOrEqual(r.timingBreakdown.repairOnlyTimeMs);
    expect(server.chats).toHaveLength(1);

    // The repaired files validate clean.
    const repaired = new Map(fixture("undefined-typo").files);
    for (const f of r.repairedFiles) repaired.set(f.path, f.content);
    expect((await validateFiles(repaired)).issues).toEqual([]);
    // Nothing was written by the repair.
    expect(await currentHead(app.id)).toEqual(headBefore);

    // Apply: the existing merge, announced as an autofix.
    const applied = await call<{ filesCount: number; error?: unknown }>(mergeRoute.POST, {
      path: `/api/apps/${app.id}/merge`,
      params: { appId: app.id },
      token: who.token,
      body: { files: r.repairedFiles, autofix: true },
    });
    expect(applied.status).toBe(200);
    expect(applied.json.filesCount).toBe(1);
    expect((await currentTree(app.id)).get(file)).toBe(hashContent(fixed));
    const [notice] = await listChatPage(app.id, null, 1);
    expect(notice).toMatchObject({
      kind: "autofix",
      content: fillTemplate(messages.repairAutofixContent, { n: 1, paths: file }),
    });
  });

  it("repairs a missing import (a component renamed) and drops a package the app cannot load", async () => {
    for (const id of ["import-missing-component", "import-unshipped-package"]) {
      const { who, app, versionId, issues } = await brokenVersion(id);
      const res = await repair(who, app, versionId, { initialIssues: issues });
      expect(res.status, id).toBe(200);
      expect(res.json.unresolvedIssues, id).toEqual([]);
      expect(res.json.repairedFiles.map((f) => f.path)).toEqual([fixture(id).edit.file]);
    }
  });

  it("a model that answers garbage: every issue unresolved, no file repaired, nothing written; each iteration asked", async () => {
    const { who, app, versionId, issues } = await brokenVersion("undefined-typo");
    const headBefore = await currentHead(app.id);
    server.script("Sure! I fixed everything.", '<action type="edit_file" path="pages/Other.jsx">x</action>');
    const res = await repair(who, app, versionId, { initialIssues: issues });
    expect(res.status).toBe(200);
    expect(res.json.unresolvedIssues).toEqual(issues);
    expect(res.json.repairedFiles).toEqual([]);
    expect(res.json.iterationsPerformed).toBe(2);
    expect(res.json.repairProcessDetails[0]).toMatchObject({
      repairSuccess: false,
      finalIssueCount: 1,
      aiRepairs: [
        { success: false, outputContent: null, iteration: 1 },
        { success: false, outputContent: null, iteration: 2 },
      ],
    });
    expect(server.chats).toHaveLength(2);
    expect(await currentHead(app.id)).toEqual(headBefore);
  });

  it("clamps iterations to 1-5", async () => {
    // Seven calls: a plan whose minute allows them.
    const { who, app, versionId, issues } = await brokenVersion(
      "hooks-in-helper",
      await createBuilder({ plan: "explorer" }),
    );
    // The demo model does not fix hooks: every iteration asked is performed.
    for (const [asked, performed] of [
      [99, REPAIR_ITERATIONS_MAX],
      [0, 1],
      [-3, 1],
    ] as const) {
      server.reset();
      const res = await repair(who, app, versionId, { initialIssues: issues, iterations: asked });
      expect(res.status, String(asked)).toBe(200);
      expect(res.json.iterationsPerformed, String(asked)).toBe(performed);
      expect(server.chats).toHaveLength(performed);
      expect(res.json.unresolvedIssues).toEqual(issues);
    }
  });

  it("no issues to repair: 400 with the spec's message, and the model is not asked", async () => {
    const { who, app, versionId } = await brokenVersion("undefined-typo");
    const res = await repair(who, app, versionId, { initialIssues: [] });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe("Please run validation first and ensure there are issues to repair");
    expect(server.chats).toHaveLength(0);
  });

  it("the model failing: 502 'Failed to repair'; a custom model is for admins, and is the one asked", async () => {
    const { who, app, versionId, issues } = await brokenVersion("undefined-typo");
    server.script(
      { status: 500, message: "down", retryAfterMs: 1 },
      { status: 500, message: "down", retryAfterMs: 1 },
    );
    const failed = await repair(who, app, versionId, { initialIssues: issues });
    expect(failed.status).toBe(502);
    expect(failed.json.error?.message).toBe("Failed to repair");

    const custom = await repair(who, app, versionId, { initialIssues: issues, customModel: "gpt-4o" });
    expect(custom.status).toBe(403);

    const admin = await createBuilder({ isAdmin: true });
    const own = await brokenVersion("undefined-typo", admin);
    server.reset();
    const res = await repair(admin, own.app, own.versionId, {
      initialIssues: own.issues,
      customModel: "gpt-4o",
    });
    expect(res.status).toBe(200);
    expect(server.chats.map((c) => c.model)).toEqual(["gpt-4o"]);
    expect(res.json.repairProcessDetails[0]!.aiRepairs[0]!.modelUsed).toBe("gpt-4o");

    // The custom model failing is named as such (compare mode shows it beside the default's result).
    server.script(
      { status: 404, message: "The model 'gpt-9' does not exist", retryAfterMs: 1 },
      { status: 404, message: "The model 'gpt-9' does not exist", retryAfterMs: 1 },
    );
    const gone = await repair(admin, own.app, own.versionId, {
      initialIssues: own.issues,
      customModel: "gpt-9",
    });
    expect(gone.status).toBe(502);
    expect(gone.json.error?.message).toBe("Failed to repair with custom model");
  });

  it("counts in the builder's model limits: a spent budget is 429 with the limit's message, the model not asked", async () => {
    const builder = await createBuilder({ plan: "lite" });
    const { who, app, versionId, issues } = await brokenVersion("undefined-typo", builder);
    const lite = getPlanCapabilities("lite");
    const minute = counter("model-calls-minute", lite.modelCallsPerMinute, 60);
    // One repair of one iteration is one call of the budget.
    expect((await repair(who, app, versionId, { initialIssues: issues })).status).toBe(200);
    for (let i = 1; i < lite.modelCallsPerMinute; i++) {
      expect(await minute.consume(builder.account.accountId)).toBe(true);
    }
    server.reset();
    const res = await repair(who, app, versionId, { initialIssues: issues });
    expect(res.status).toBe(429);
    expect(res.json.error).toEqual({
      code: "MODEL_LIMIT_REACHED",
      message: fillTemplate(messages.modelCallsPerMinuteReached, { n: lite.modelCallsPerMinute }),
    });
    expect(server.chats).toHaveLength(0);
  });
});

describe("the local model server's repairs", () => {
  // The fixtures of the kinds it can fix for sure: each comes back validating clean.
  const fixable = broken.filter((a) => a.kind === "undefined-name" || a.kind === "missing-import");
  it.each(fixable.map((a) => [a.id, a] as const))("%s: fixed, clean", async (_id, app) => {
    const { issues } = await validateFiles(app.files);
    const targets = [...new Set(issues.map((i: ValidationIssue) => i.file!))];
    const answer = demoRepair(repairPrompt(issues, app.files, targets));
    const files = new Map(app.files);
    for (const m of answer.matchAll(/<action type="edit_file" path="([^"]+)">\n([\s\S]*?)<\/action>/g)) {
      files.set(m[1]!, m[2]!);
    }
    expect((await validateFiles(files)).issues).toEqual([]);
  });
});
