import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as activateRoute from "@/app/api/apps/[appId]/chat/activate/route";
import * as historyRoute from "@/app/api/apps/[appId]/chat/history/route";
import * as ratingRoute from "@/app/api/apps/[appId]/rating/route";
import * as restoreRoute from "@/app/api/apps/[appId]/versions/[versionId]/restore/route";
import * as revertRoute from "@/app/api/apps/[appId]/versions/[versionId]/revert/route";
import * as versionRoute from "@/app/api/apps/[appId]/versions/[versionId]/route";
import * as undoRoute from "@/app/api/apps/[appId]/versions/[versionId]/undo-restore/route";
import * as versionsRoute from "@/app/api/apps/[appId]/versions/route";
import { db } from "@/db/client";
import { deleteAppRow } from "@/db/queries/apps";
import { type App, appFiles, chatMessages, ratings, spaceBlobs, versionFiles, versions } from "@/db/schema";
import { SPACE_SNAPSHOT_INTERVAL } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { failAnswer, finishAnswer, saveAnswerProgress, startExchange } from "@/lib/space/chat";
import { prepareRetry } from "@/lib/space/restore";
import { type FileChange, RATING_POSITIVE_REASONS, RATING_PROBLEM_REASONS } from "@/lib/space/schemas";
import { applyFileChanges, getVersionDetail, type VersionDetail } from "@/lib/space/versions";
import type { ChatMessageView, VersionSummary } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";
import { createBuilder, createEndUser, createPublishedApp } from "../support/factories";
import { type Answer, call } from "../support/http";
import { createSpaceApp, page, say } from "../support/space";

// Space apps' versions and chat against the real database: a
// version stores only what changed, restore / undo / revert / retry never lose a state, ratings
// (score 1-5, fitting reasons, once per answer), history pages, parallel writers, and who may call what.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const write = (path: string, content: string): FileChange => ({ type: "edit_file", path, content });
type Handler = Parameters<typeof call>[0];

async function api<T = Answer>(
  handler: Handler,
  who: { token: string },
  path: string,
  params: Record<string, string>,
  body?: unknown,
) {
  return call<Answer & T>(handler, {
    method: body === undefined ? "GET" : "POST",
    path,
    params,
    token: who.token,
    body,
  });
}

const versionsOf = (b: { token: string }, app: App, limit?: number) =>
  api<{
    versions: VersionSummary[];
    current: VersionSummary | null;
    intermediateCount: number;
    total: number;
  }>(versionsRoute.GET, b, `/api/apps/${app.id}/versions${limit ? `?limit=${limit}` : ""}`, {
    appId: app.id,
  });

const versionOf = (b: { token: string }, app: App, versionId: string) =>
  api<{
    version: VersionSummary;
    files: { path: string; content: string; type: string }[];
    changes: unknown[];
  }>(versionRoute.GET, b, `/api/apps/${app.id}/versions/${versionId}`, { appId: app.id, versionId });

const restore = (b: { token: string }, app: App, versionId: string, messageId?: string) =>
  api<{ messages: ChatMessageView[]; version: VersionSummary }>(
    restoreRoute.POST,
    b,
    `/api/apps/${app.id}/versions/${versionId}/restore`,
    { appId: app.id, versionId },
    messageId ? { messageId } : {},
  );

const undo = (b: { token: string }, app: App, versionId: string, messageId: string) =>
  api<{ messages: ChatMessageView[]; version: VersionSummary }>(
    undoRoute.POST,
    b,
    `/api/apps/${app.id}/versions/${versionId}/undo-restore`,
    { appId: app.id, versionId },
    { messageId },
  );

const revert = (b: { token: string }, app: App, versionId: string, messageId: string, confirm?: boolean) =>
  api<{ removedMessageIds: string[]; removeCount?: number; version: VersionSummary }>(
    revertRoute.POST,
    b,
    `/api/apps/${app.id}/versions/${versionId}/revert`,
    { appId: app.id, versionId },
    { messageId, ...(confirm === undefined ? {} : { confirm }) },
  );

const history = (b: { token: string }, app: App, fromMessageId = "", limit = 50) =>
  api<{ messages: ChatMessageView[]; hasMore: boolean }>(
    historyRoute.GET,
    b,
    `/api/apps/${app.id}/chat/history?fromMessageId=${fromMessageId}&limit=${limit}`,
    { appId: app.id },
  );

const rate = (b: { token: string }, app: App, body: Record<string, unknown>) =>
  api<{ rating: { score: number; feedback: string[]; comment: string | null } }>(
    ratingRoute.POST,
    b,
    `/api/apps/${app.id}/rating`,
    { appId: app.id },
    body,
  );

/** The app's current files, path -> content, straight from the tables. */
async function currentFiles(appId: string): Promise<Record<string, string>> {
  const rows = await db()
    .select({ path: appFiles.path, content: spaceBlobs.content })
    .from(appFiles)
    .innerJoin(spaceBlobs, and(eq(spaceBlobs.appId, appFiles.appId), eq(spaceBlobs.hash, appFiles.blobHash)))
    .where(eq(appFiles.appId, appId));
  return Object.fromEntries(rows.map((r) => [r.path, r.content]));
}

async function filesOfVersion(b: Builder, app: App, versionId: string): Promise<Record<string, string>> {
  const res = await versionOf(b, app, versionId);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return Object.fromEntries(res.json.files.map((f) => [f.path, f.content]));
}

async function spaceOf() {
  const builder = await createBuilder();
  const app = await createSpaceApp(builder.account.accountId);
  return { builder, app, owner: builder.account.accountId };
}

const fileText = (i: number, v = 0) =>
  `// file ${i}, edit ${v}\n${Array.from({ length: 40 }, (_, l) => `export const line${l} = "${i}-${l}-${v}";`).join("\n")}\n`;

async function rowsOf(table: typeof versionFiles | typeof spaceBlobs | typeof versions, appId: string) {
  const [row] = await db().select({ n: count() }).from(table).where(eq(table.appId, appId));
  return row!.n;
}

describe("a version stores only what changed", () => {
  it("one edited file of a 200-file app is one row and one blob; every version keeps its files", async () => {
    const { builder, app, owner } = await spaceOf();
    const all = Array.from({ length: 200 }, (_, i) => ({
      type: "add_file" as const,
      path: `components/File${i}.jsx`,
      content: fileText(i),
    }));
    const v1 = (await applyFileChanges(app.id, all, { kind: "chat", accountId: owner }))!;
    expect(await rowsOf(versionFiles, app.id)).toBe(200);
    expect(await rowsOf(spaceBlobs, app.id)).toBe(200);

    const v2 = (await applyFileChanges(
      app.id,
      [{ type: "edit_file", path: "components/File7.jsx", content: fileText(7, 1) }],
      { kind: "chat", accountId: owner },
    ))!;
    expect(v2.parentId).toBe(v1.id);
    const rows = await db().select().from(versionFiles).where(eq(versionFiles.versionId, v2.id));
    expect(rows).toEqual([
      expect.objectContaining({ path: "components/File7.jsx", change: "modified", appId: app.id }),
    ]);
    expect(await rowsOf(spaceBlobs, app.id)).toBe(201);

    // The same content again is stored once; an unchanged write makes no version.
    expect(
      await applyFileChanges(
        app.id,
        [{ type: "edit_file", path: "components/File7.jsx", content: fileText(7, 1) }],
        {
          kind: "chat",
        },
      ),
    ).toBeNull();
    expect(await rowsOf(versions, app.id)).toBe(2);

    const first = await filesOfVersion(builder, app, v1.id);
    const second = await filesOfVersion(builder, app, v2.id);
    expect(Object.keys(first)).toHaveLength(200);
    expect(first["components/File7.jsx"]).toBe(fileText(7));
    expect(second["components/File7.jsx"]).toBe(fileText(7, 1));
    expect(second["components/File8.jsx"]).toBe(fileText(8));
    expect(await currentFiles(app.id)).toEqual(second);
    const detail = await versionOf(builder, app, v2.id);
    expect(detail.json.changes).toEqual([{ path: "components/File7.jsx", status: "modified" }]);
    expect(detail.json.version).toMatchObject({
      number: 2,
      fileCount: 200,
      metadata: { modified: 1, added: 0, deleted: 0 },
    });
    expect(detail.json.files).toHaveLength(200);
    // files=none: the same version and changes without the 200 contents (the changes dialog's read).
    const light = await api<{ files: unknown[]; changes: unknown[] }>(
      versionRoute.GET,
      builder,
      `/api/apps/${app.id}/versions/${v2.id}?files=none`,
      { appId: app.id, versionId: v2.id },
    );
    expect(light.json.files).toEqual([]);
    expect(light.json.changes).toEqual(detail.json.changes);
    expect(light.json).not.toHaveProperty("firstFile");
  });

  it("sides=first brings the first changed file's two sides; against=current compares with the current files", async () => {
    const { builder, app, owner } = await spaceOf();
    const get = (versionId: string, query: string) =>
      api<VersionDetail>(versionRoute.GET, builder, `/api/apps/${app.id}/versions/${versionId}?${query}`, {
        appId: app.id,
        versionId,
      });
    const v1 = (await applyFileChanges(
      app.id,
      [write("pages/Home.jsx", "home 1"), write("pages/About.jsx", "about 1"), write("globals.css", "a{}")],
      { kind: "chat", accountId: owner },
    ))!;
    const v2 = (await applyFileChanges(
      app.id,
      [
        write("pages/Home.jsx", "home 2"),
        { type: "delete_file", path: "pages/About.jsx" },
        write("pages/Zoo.jsx", "zoo"),
      ],
      { kind: "chat", accountId: owner },
    ))!;

    // Against its parent: the dialogs' order puts the added file first, whatever its path.
    const own = await get(v2.id, "files=none&sides=first");
    expect(own.status).toBe(200);
    expect(own.json.files).toEqual([]);
    expect(own.json.firstFile).toEqual({
      path: "pages/Zoo.jsx",
      status: "added",
      content: "zoo",
      previousContent: null,
    });
    expect(own.json.changes).toEqual([
      { path: "pages/About.jsx", status: "deleted" },
      { path: "pages/Home.jsx", status: "modified" },
      { path: "pages/Zoo.jsx", status: "added" },
    ]);

    // Version 1 against the current files (version 2): merging it would add About back, change
    // Home back, and (as a version) not have Zoo.
    const compared = await get(v1.id, "files=none&against=current&sides=first");
    expect(compared.json.changes).toEqual([
      { path: "pages/About.jsx", status: "added" },
      { path: "pages/Home.jsx", status: "modified" },
      { path: "pages/Zoo.jsx", status: "deleted" },
    ]);
    expect(compared.json.firstFile).toEqual({
      path: "pages/About.jsx",
      status: "added",
      content: "about 1",
      previousContent: null,
    });
    expect((await get(v1.id, "files=none&against=current")).json).not.toHaveProperty("firstFile");
    // The current version against the current files: nothing differs.
    const same = await get(v2.id, "files=none&against=current&sides=first");
    expect(same.json.changes).toEqual([]);
    expect(same.json.firstFile).toBeNull();

    const bad = await get(v1.id, "against=elsewhere");
    expect(bad.status).toBe(400);
  });

  it("partial edits change only their part; a part missing or twice writes nothing", async () => {
    const { builder, app, owner } = await spaceOf();
    await applyFileChanges(
      app.id,
      [page("Home", "Hello"), { type: "add_file", path: "globals.css", content: "a{}" }],
      {
        kind: "chat",
        accountId: owner,
      },
    );
    const v2 = (await applyFileChanges(
      app.id,
      [
        { type: "partial_edit", path: "pages/Home.jsx", edits: [{ find: "Hello", replace: "Hi there" }] },
        { type: "delete_file", path: "globals.css" },
        {
          type: "add_entity",
          name: "Task",
          content: '{"type":"object","properties":{"title":{"type":"string"}}}',
        },
      ],
      { kind: "chat", accountId: owner },
    ))!;
    const files = await filesOfVersion(builder, app, v2.id);
    expect(files["pages/Home.jsx"]).toBe(
      "export default function Home() {\n  return <main>Hi there</main>;\n}\n",
    );
    expect(files["globals.css"]).toBeUndefined();
    expect(files["entities/Task.json"]).toContain('"title"');
    const detail = await versionOf(builder, app, v2.id);
    expect(detail.json.changes).toEqual([
      { path: "entities/Task.json", status: "added" },
      { path: "globals.css", status: "deleted" },
      { path: "pages/Home.jsx", status: "modified" },
    ]);
    expect(detail.json.files.find((f) => f.path === "entities/Task.json")).toMatchObject({
      type: "entities",
      readOnly: true,
    });

    const attempt = (find: string) =>
      applyFileChanges(
        app.id,
        [{ type: "partial_edit", path: "pages/Home.jsx", edits: [{ find, replace: "x" }] }],
        {
          kind: "chat",
        },
      ).catch((e: AppError) => e);
    const missing = await attempt("Nowhere");
    expect(missing).toBeInstanceOf(AppError);
    expect((missing as AppError).message).toBe(
      fillTemplate(messages.spacePartialEditNotFound, { path: "pages/Home.jsx" }),
    );
    expect(((await attempt("main")) as AppError).code).toBe("EDIT_AMBIGUOUS");
    expect(await rowsOf(versions, app.id)).toBe(2);
  });

  it("reads any version of a long history through full listings every SNAPSHOT_INTERVAL versions", async () => {
    const { builder, app, owner } = await spaceOf();
    const expected: Record<string, string>[] = [];
    const state: Record<string, string> = {};
    const ids: string[] = [];
    const total = SPACE_SNAPSHOT_INTERVAL + 30;
    for (let v = 0; v < total; v++) {
      // Mostly edits of a few files, with an addition and a deletion now and then.
      const path = `pages/P${v % 7}.jsx`;
      const changes: Parameters<typeof applyFileChanges>[1] = [{ type: "edit_file", path, content: `v${v}` }];
      state[path] = `v${v}`;
      if (v % 11 === 5) {
        changes.push({ type: "delete_file", path: "pages/P3.jsx" });
        delete state["pages/P3.jsx"];
      }
      const made = (await applyFileChanges(app.id, changes, { kind: "chat", accountId: owner }))!;
      ids.push(made.id);
      expected.push({ ...state });
    }
    const listed = await db()
      .select({ number: versions.number, distance: versions.snapshotDistance })
      .from(versions)
      .where(and(eq(versions.appId, app.id), eq(versions.snapshotDistance, 0)));
    expect(listed.map((l) => l.number).sort((a, b) => a - b)).toEqual([1, SPACE_SNAPSHOT_INTERVAL + 1]);
    for (const i of [
      0,
      1,
      50,
      SPACE_SNAPSHOT_INTERVAL - 1,
      SPACE_SNAPSHOT_INTERVAL,
      SPACE_SNAPSHOT_INTERVAL + 1,
      total - 1,
    ]) {
      expect(await filesOfVersion(builder, app, ids[i]!), `version ${i + 1}`).toEqual(expected[i]);
    }
  });
});

describe("restore and undo", () => {
  it("restore then undo: new versions equal to earlier states, every version still there", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, {
      user: "A home page",
      answer: "Here it is",
      changes: [page("Home", "Hello")],
    });
    const t2 = await say(app, owner, {
      user: "Say bye, add about",
      answer: "Done",
      changes: [page("Home", "Bye"), page("About", "Us")],
    });
    const v1Files = await filesOfVersion(builder, app, t1.versionId!);
    const v2Files = await filesOfVersion(builder, app, t2.versionId!);

    // "Restoring a version needs a message id".
    const noMessage = await restore(builder, app, t1.versionId!);
    expect(noMessage.status).toBe(400);
    expect(noMessage.json.error?.code).toBe("INVALID_INPUT");
    // The current version is already what it would restore.
    const same = await restore(builder, app, t2.versionId!, t2.answerId);
    expect(same.json.error?.message).toBe(messages.restoreAlreadyCurrent);

    const restored = await restore(builder, app, t1.versionId!, t1.answerId);
    expect(restored.status, JSON.stringify(restored.json)).toBe(200);
    const [notice] = restored.json.messages;
    expect(notice).toMatchObject({ role: "assistant", kind: "restore" });
    expect(notice!.annotations[0]).toMatchObject({
      versionId: restored.json.version.id,
      status: "complete",
      systemActionInfo: {
        type: "restore",
        revertedFromMessageId: t1.answerId,
        restoredVersionId: t1.versionId,
      },
    });
    expect(restored.json.version).toMatchObject({
      number: 3,
      kind: "restore",
      isCurrent: true,
      parentId: t2.versionId,
    });
    expect(await currentFiles(app.id)).toEqual(v1Files);
    // The restore stored what differs from version 2 (About deleted, Home back), not the app.
    const v3Rows = await db()
      .select()
      .from(versionFiles)
      .where(eq(versionFiles.versionId, restored.json.version.id));
    expect(v3Rows.map((r) => [r.path, r.change]).sort()).toEqual([
      ["pages/About.jsx", "deleted"],
      ["pages/Home.jsx", "modified"],
    ]);

    const undone = await undo(builder, app, restored.json.version.id, notice!.id);
    expect(undone.status, JSON.stringify(undone.json)).toBe(200);
    expect(undone.json.messages[0]).toMatchObject({ kind: "undo_restore" });
    expect(undone.json.messages[0]!.annotations[0].systemActionInfo).toMatchObject({
      type: "undo_restore",
      revertedFromMessageId: notice!.id,
      restoredVersionId: t2.versionId,
    });
    expect(undone.json.version).toMatchObject({ number: 4, kind: "undo_restore" });
    expect(await currentFiles(app.id)).toEqual(v2Files);

    const again = await undo(builder, app, restored.json.version.id, notice!.id);
    expect(again.status).toBe(409);
    expect(again.json.error?.message).toBe(messages.undoRestoreAlreadyUndone);
    const notRestore = await undo(builder, app, t2.versionId!, t2.answerId);
    expect(notRestore.json.error?.message).toBe(messages.undoRestoreNotRestore);

    // Every state is still there, in order, in the list and by id.
    const list = await versionsOf(builder, app);
    expect(list.json.versions.map((v) => v.number)).toEqual([4, 3, 2, 1]);
    expect(list.json.current?.number).toBe(4);
    for (const [id, files] of [
      [t1.versionId!, v1Files],
      [t2.versionId!, v2Files],
      [restored.json.version.id, v1Files],
      [undone.json.version.id, v2Files],
    ] as const) {
      expect(await filesOfVersion(builder, app, id)).toEqual(files);
    }

    // The conversation holds both notices.
    const page1 = await history(builder, app);
    expect(page1.json.messages.map((m) => m.kind)).toEqual([
      "message",
      "message",
      "message",
      "message",
      "restore",
      "undo_restore",
    ]);
  });

  it("a restore cannot be undone once the app changed after it", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, { user: "one", answer: "ok", changes: [page("Home", "1")] });
    await say(app, owner, { user: "two", answer: "ok", changes: [page("Home", "2")] });
    const restored = await restore(builder, app, t1.versionId!, t1.answerId);
    await say(app, owner, { user: "three", answer: "ok", changes: [page("Home", "3")] });
    const stale = await undo(builder, app, restored.json.version.id, restored.json.messages[0]!.id);
    expect(stale.status).toBe(409);
    expect(stale.json.error?.message).toBe(messages.undoRestoreStale);
    expect((await currentFiles(app.id))["pages/Home.jsx"]).toContain("3");
  });
});

describe("revert and retry", () => {
  it("revert removes later messages only with confirm; their versions stay listed and restorable", async () => {
    const { builder, app, owner } = await spaceOf();
    const turns = [];
    for (let i = 1; i <= 12; i++) {
      turns.push(
        await say(app, owner, { user: `step ${i}`, answer: "ok", changes: [page("Home", `step ${i}`)] }),
      );
    }
    const first = turns[0]!;
    const unconfirmed = await revert(builder, app, first.versionId!, first.answerId);
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.json.error?.code).toBe("CONFIRM_REQUIRED");
    expect(unconfirmed.json.removeCount).toBe(22);
    expect(unconfirmed.json.error?.message).toBe(fillTemplate(messages.revertConfirmRequired, { n: 22 }));
    expect((await history(builder, app)).json.messages).toHaveLength(24);

    const done = await revert(builder, app, first.versionId!, first.answerId, true);
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect(done.json.removedMessageIds).toHaveLength(22);
    expect((await history(builder, app)).json.messages.map((m) => m.content)).toEqual(["step 1", "ok"]);
    expect((await currentFiles(app.id))["pages/Home.jsx"]).toContain("step 1");

    // "the latest 10 plus the current one with an intermediate count".
    const list = await versionsOf(builder, app);
    expect(list.json.versions.map((v) => v.number)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(list.json.current).toMatchObject({ number: 1, isCurrent: true });
    expect(list.json.intermediateCount).toBe(1);
    expect(list.json.total).toBe(12);

    // The removed answers' versions are still there and can be restored.
    const last = turns[11]!;
    expect((await filesOfVersion(builder, app, last.versionId!))["pages/Home.jsx"]).toContain("step 12");
    const back = await restore(builder, app, last.versionId!, last.answerId);
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    expect(back.json.version).toMatchObject({ number: 13, parentId: first.versionId });
    expect((await currentFiles(app.id))["pages/Home.jsx"]).toContain("step 12");
  });

  it("'You can only retry the last message.'; a retry goes back to the state its message was sent on", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, { user: "home", answer: "ok", changes: [page("Home", "1")] });
    const t2 = await say(app, owner, { user: "about", answer: "ok", changes: [page("About", "2")] });
    for (const id of [t1.userMessageId, t2.answerId]) {
      const refused = await prepareRetry(app, id).catch((e: AppError) => e);
      expect((refused as AppError).message).toBe(messages.chatRetryOnlyLast);
    }
    const retry = await prepareRetry(app, t2.userMessageId);
    expect(retry.removedMessageIds).toEqual([t2.answerId]);
    expect(retry.versionId).toBe(t1.versionId);
    expect(Object.keys(await currentFiles(app.id))).toEqual(["pages/Home.jsx"]);
    expect((await history(builder, app)).json.messages.map((m) => m.id)).toEqual([
      t1.userMessageId,
      t1.answerId,
      t2.userMessageId,
    ]);
    // The answer's version is kept.
    expect((await versionsOf(builder, app)).json.total).toBe(2);
    expect(Object.keys(await filesOfVersion(builder, app, t2.versionId!)).sort()).toEqual([
      "pages/About.jsx",
      "pages/Home.jsx",
    ]);
  });
});

describe("ratings", () => {
  it("a score 1-5 with reasons that fit it, a trimmed comment, once per answer", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, { user: "home", answer: "ok", changes: [page("Home", "1")] });
    const t2 = await say(app, owner, { user: "more", answer: "ok" });

    const zero = await rate(builder, app, { messageId: t1.answerId, score: 0, feedback: [] });
    expect(zero.status).toBe(400);
    const mismatch = await rate(builder, app, {
      messageId: t1.answerId,
      score: 2,
      feedback: [RATING_POSITIVE_REASONS[0]],
    });
    expect(mismatch.json.error?.message).toBe(messages.ratingReasonsMismatch);
    const userMessage = await rate(builder, app, { messageId: t1.userMessageId, score: 5 });
    expect(userMessage.json.error?.message).toBe(messages.ratingNotAnswer);

    const good = await rate(builder, app, {
      messageId: t1.answerId,
      score: 5,
      feedback: ["Beautiful design", "I love it!"],
      comment: "  Great work  ",
    });
    expect(good.status, JSON.stringify(good.json)).toBe(200);
    expect(good.json.rating).toMatchObject({
      score: 5,
      feedback: ["I love it!", "Beautiful design"],
      comment: "Great work",
    });
    const twice = await rate(builder, app, { messageId: t1.answerId, score: 1 });
    expect(twice.status).toBe(409);
    expect(twice.json.error?.message).toBe(messages.ratingAlreadyRated);

    const low = await rate(builder, app, {
      messageId: t2.answerId,
      score: 3,
      feedback: [RATING_PROBLEM_REASONS[1]],
      comment: "   ",
    });
    expect(low.json.rating).toMatchObject({
      score: 3,
      feedback: ["Doesn't implement the changes"],
      comment: null,
    });

    const page1 = await history(builder, app);
    const rated = page1.json.messages.find((m) => m.id === t1.answerId)!;
    expect(rated.annotations[0].rating).toMatchObject({ score: 5, comment: "Great work" });

    // Another app's message is not found through this app.
    const other = await spaceOf();
    const foreign = await rate(other.builder, other.app, { messageId: t2.answerId, score: 4 });
    expect(foreign.status).toBe(404);
    const [stored] = await db().select({ n: count() }).from(ratings).where(eq(ratings.appId, app.id));
    expect(stored!.n).toBe(2);
  });
});

describe("chat history", () => {
  it("pages of 50 before a message, oldest first, with hasMore", async () => {
    const { builder, app, owner } = await spaceOf();
    for (let i = 0; i < 60; i++) await say(app, owner, { user: `q${i}`, answer: `a${i}` });
    const first = await history(builder, app);
    expect(first.status).toBe(200);
    expect(first.json.messages).toHaveLength(50);
    expect(first.json.messages[0]!.content).toBe("q35");
    expect(first.json.messages.at(-1)!.content).toBe("a59");
    expect(first.json.hasMore).toBe(true);
    const second = await history(builder, app, first.json.messages[0]!.id);
    expect(second.json.messages).toHaveLength(50);
    expect(second.json.messages.at(-1)!.content).toBe("a34");
    expect(second.json.hasMore).toBe(true);
    const third = await history(builder, app, second.json.messages[0]!.id);
    expect(third.json.messages.map((m) => m.content).slice(0, 2)).toEqual(["q0", "a0"]);
    expect(third.json.messages).toHaveLength(20);
    expect(third.json.hasMore).toBe(false);
    const small = await history(builder, app, "", 3);
    expect(small.json.messages.map((m) => m.content)).toEqual(["a58", "q59", "a59"]);

    const unknown = await history(builder, app, crypto.randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.json.error?.message).toBe(messages.messageNotInHistory);
    expect((await history(builder, app, "", 51)).status).toBe(400);
  });
});

describe("concurrent writers", () => {
  it("parallel changes become one version each, in a line, none lost", async () => {
    const { builder, app, owner } = await spaceOf();
    const writers = Array.from({ length: 8 }, (_, i) =>
      applyFileChanges(
        app.id,
        [
          { type: "add_file", path: `pages/A${i}.jsx`, content: `a${i}` },
          { type: "add_file", path: "shared.txt", content: `written by ${i}` },
        ],
        { kind: "chat", accountId: owner },
      ),
    );
    const made = (await Promise.all(writers)).map((v) => v!);
    const byNumber = [...made].sort((a, b) => a.number - b.number);
    expect(byNumber.map((v) => v.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (let i = 1; i < byNumber.length; i++) expect(byNumber[i]!.parentId).toBe(byNumber[i - 1]!.id);
    // Each version holds its own writer's paths and nothing of another's.
    for (const v of made.slice(1)) {
      const detail = await getVersionDetail(app, v.id);
      const own = detail.changes.map((c) => c.path).filter((p) => p.startsWith("pages/"));
      expect(own).toHaveLength(1);
    }
    const files = await currentFiles(app.id);
    expect(Object.keys(files).filter((p) => p.startsWith("pages/"))).toHaveLength(8);
    // The shared file holds the last writer's text, in the last version as in the current files.
    const last = await filesOfVersion(builder, app, byNumber.at(-1)!.id);
    expect(last).toEqual(files);
    expect(files["shared.txt"]).toMatch(/^written by \d$/);
  });

  it("two tabs sending at once: one answer is written, the other is refused (409)", async () => {
    const { app, owner } = await spaceOf();
    const tries = await Promise.allSettled(
      [1, 2, 3].map((i) => startExchange(app, owner, { user: { content: `tab ${i}` } })),
    );
    const ok = tries.filter((t) => t.status === "fulfilled");
    const refused = tries.filter((t) => t.status === "rejected") as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect(refused.map((r) => (r.reason as AppError).code)).toEqual(["CHAT_BUSY", "CHAT_BUSY"]);
    const [row] = await db()
      .select({ n: count() })
      .from(chatMessages)
      .where(and(eq(chatMessages.appId, app.id), eq(chatMessages.role, "user")));
    expect(row!.n).toBe(1);
  });

  it("parallel restores run one after the other, each a whole version", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, { user: "one", answer: "ok", changes: [page("Home", "1")] });
    const t2 = await say(app, owner, {
      user: "two",
      answer: "ok",
      changes: [page("Home", "2"), page("About", "2")],
    });
    await say(app, owner, { user: "three", answer: "ok", changes: [page("Home", "3")] });
    const [a, b] = await Promise.all([
      restore(builder, app, t1.versionId!, t1.answerId),
      restore(builder, app, t2.versionId!, t2.answerId),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const numbers = [a.json.version.number, b.json.version.number].sort();
    expect(numbers).toEqual([4, 5]);
    const lastRestore = a.json.version.number === 5 ? a : b;
    const expected = await filesOfVersion(builder, app, lastRestore === a ? t1.versionId! : t2.versionId!);
    expect(await currentFiles(app.id)).toEqual(expected);
  });
});

describe("the life of an answer (for the chat stream)", () => {
  it("streams, fails without changing files, and a retry can follow; a stale answer ends incomplete", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, { user: "home", answer: "ok", changes: [page("Home", "1")] });
    const started = await startExchange(app, owner, { user: { content: "break it" } });
    expect(started.answer.annotations[0]).toMatchObject({ status: "streaming", versionId: null });
    await saveAnswerProgress(app, started.answer.id, { content: "Working on" });
    // A change that cannot apply writes nothing and leaves the answer streaming, for the caller to fail.
    const bad = await finishAnswer(app, owner, started.answer.id, {
      status: "complete",
      content: "Done",
      changes: [{ type: "partial_edit", path: "pages/Home.jsx", edits: [{ find: "absent", replace: "x" }] }],
    }).catch((e: AppError) => e);
    expect((bad as AppError).code).toBe("EDIT_NOT_FOUND");
    const failed = await failAnswer(app, started.answer.id, { error: "the model stopped" });
    expect(failed.annotations[0].status).toBe("failed");
    const twice = await failAnswer(app, started.answer.id, { error: "again" }).catch((e: AppError) => e);
    expect((twice as AppError).code).toBe("NOT_STREAMING");
    expect((await versionsOf(builder, app)).json.total).toBe(1);
    expect((await currentFiles(app.id))["pages/Home.jsx"]).toContain("1");
    const retry = await prepareRetry(app, started.userMessage!.id);
    expect(retry.versionId).toBe(t1.versionId);

    // Discuss mode answers without changing files.
    const discuss = await startExchange(app, owner, { user: { content: "why?" }, discussMode: true });
    const talked = await finishAnswer(app, owner, discuss.answer.id, {
      status: "complete",
      content: "Because",
      changes: [page("Home", "changed")],
    });
    expect(talked.version).toBeNull();
    expect(talked.message.annotations[0].discussModeMetadata).toEqual({ isDiscussMode: true });

    // An answer whose server went away does not block the chat for ever.
    const lost = await startExchange(app, owner, { user: { content: "lost" } });
    await db()
      .update(chatMessages)
      .set({ updatedAt: new Date(Date.now() - 60 * 60 * 1000) })
      .where(eq(chatMessages.id, lost.answer.id));
    const next = await startExchange(app, owner, { user: { content: "next" } });
    expect(next.answer.annotations[0].status).toBe("streaming");
    const [row] = await db().select().from(chatMessages).where(eq(chatMessages.id, lost.answer.id));
    expect(row!.status).toBe("incomplete");
    // While an answer is written, restores wait for it (409), so nothing lands inside it.
    const busy = await restore(builder, app, t1.versionId!, t1.answerId);
    expect(busy.status).toBe(409);
    expect(busy.json.error?.message).toBe(messages.chatBusy);
  });
});

describe("who may call", () => {
  it("builder B and end users get nothing of builder A's chat or versions; other app types are refused", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, { user: "home", answer: "ok", changes: [page("Home", "secret")] });
    const other = await createBuilder();
    const admin = await createBuilder({ isAdmin: true });
    const endUser = await createEndUser((await createPublishedApp(owner)).id);
    for (const stranger of [other]) {
      expect((await versionsOf(stranger, app)).status).toBe(404);
      expect((await versionOf(stranger, app, t1.versionId!)).status).toBe(404);
      expect((await history(stranger, app)).status).toBe(404);
      expect((await restore(stranger, app, t1.versionId!, t1.answerId)).status).toBe(404);
      expect((await rate(stranger, app, { messageId: t1.answerId, score: 5 })).status).toBe(404);
    }
    expect((await history(endUser, app)).status).toBe(403);
    expect((await versionOf(endUser, app, t1.versionId!)).status).toBe(403);
    // An admin may look (admins get deeper controls).
    expect((await versionOf(admin, app, t1.versionId!)).json.files[0]!.content).toContain("secret");
    // A version id of another app is not found through this one.
    const mine = await spaceOf();
    expect((await versionOf(mine.builder, mine.app, t1.versionId!)).status).toBe(404);

    const toolApp = await createPublishedApp(owner);
    const refused = await versionsOf(builder, toolApp);
    expect(refused.status).toBe(400);
    expect(refused.json.error?.message).toBe(messages.spaceNotSpaceApp);
  });
});

describe("the chat assistant", () => {
  it("activates and deactivates, keeping its chatAppId", async () => {
    const builder = await createBuilder();
    const app = await createPublishedApp(builder.account.accountId);
    const on = await api<{ chatAppId: string; status: string }>(
      activateRoute.POST,
      builder,
      `/api/apps/${app.id}/chat/activate`,
      { appId: app.id },
      { isActive: true },
    );
    expect(on.json).toMatchObject({ status: "active", isActive: true });
    const off = await api<{ chatAppId: string; status: string }>(
      activateRoute.POST,
      builder,
      `/api/apps/${app.id}/chat/activate`,
      { appId: app.id },
      { isActive: false },
    );
    expect(off.json).toMatchObject({ status: "draft", isActive: false, chatAppId: on.json.chatAppId });
    const bad = await api(
      activateRoute.POST,
      builder,
      `/api/apps/${app.id}/chat/activate`,
      { appId: app.id },
      {},
    );
    expect(bad.status).toBe(400);
  });
});

describe("deleting a space app", () => {
  it("takes its files, versions, messages and ratings with it", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, { user: "home", answer: "ok", changes: [page("Home", "1")] });
    await say(app, owner, { user: "two", answer: "ok", changes: [page("Home", "2")] });
    await restore(builder, app, t1.versionId!, t1.answerId);
    await rate(builder, app, { messageId: t1.answerId, score: 4 });
    await deleteAppRow(app.id);
    const left = await db().execute<{ n: number }>(sql`
      select (select count(*) from versions where app_id = ${app.id})
           + (select count(*) from version_files where app_id = ${app.id})
           + (select count(*) from space_blobs where app_id = ${app.id})
           + (select count(*) from app_files where app_id = ${app.id})
           + (select count(*) from chat_messages where app_id = ${app.id})
           + (select count(*) from ratings where app_id = ${app.id}) as n`);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});
