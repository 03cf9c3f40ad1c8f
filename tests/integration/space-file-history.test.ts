import { describe, expect, it } from "vitest";
import * as fileHistoryRoute from "@/app/api/apps/[appId]/files/history/route";
import * as versionFileRoute from "@/app/api/apps/[appId]/versions/[versionId]/file/route";
import type { App } from "@/db/schema";
import { SPACE_SNAPSHOT_INTERVAL, VERSIONS_LIST_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { FileAtVersion, FileHistoryPage } from "@/lib/space/file-history";
import type { FileChange } from "@/lib/space/schemas";
import { applyFileChanges } from "@/lib/space/versions";
import { createBuilder, createEndUser, createPublishedApp } from "../support/factories";
import { type Answer, call } from "../support/http";
import { createSpaceApp, say } from "../support/space";

// One file's version history (the version history dialog per file) against the real
// database: the versions that changed a path and only those, deletions, the file's content at any
// version (across a full listing of the chain), paging, and who may call.

type Who = { token: string };

const historyOf = (who: Who, app: App, path: string, extra = "") =>
  call<Answer & FileHistoryPage>(fileHistoryRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/files/history?path=${encodeURIComponent(path)}${extra}`,
    params: { appId: app.id },
    token: who.token,
  });

const fileAt = (who: Who, app: App, versionId: string, path: string, extra = "") =>
  call<Answer & FileAtVersion>(versionFileRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/versions/${versionId}/file?path=${encodeURIComponent(path)}${extra}`,
    params: { appId: app.id, versionId },
    token: who.token,
  });

/** [number, change] of each entry, in the order answered. */
const listed = (page: FileHistoryPage) => page.entries.map((e) => [e.version.number, e.change]);

async function spaceOf() {
  const builder = await createBuilder();
  const app = await createSpaceApp(builder.account.accountId);
  return { builder, app, owner: builder.account.accountId };
}

const write = (path: string, content: string): FileChange => ({ type: "edit_file", path, content });

/** Three answers: Home and About added, About changed, Home changed. */
async function homeAboutHome(app: Parameters<typeof say>[0], owner: string) {
  const steps: [string, FileChange[]][] = [
    ["Make a home page", [write("pages/Home.jsx", "home 1"), write("pages/About.jsx", "about 1")]],
    ["Change the about page", [write("pages/About.jsx", "about 2")]],
    ["Change the home page", [write("pages/Home.jsx", "home 3")]],
  ];
  const out = [];
  for (const [user, changes] of steps) out.push(await say(app, owner, { user, answer: "Done", changes }));
  return out;
}

describe("a file's history", () => {
  it("lists exactly the versions that changed the file, newest first, with what they did and the request", async () => {
    const { builder, app, owner } = await spaceOf();
    const [v1, v2, v3] = await homeAboutHome(app, owner);

    const home = await historyOf(builder, app, "pages/Home.jsx");
    expect(home.status, JSON.stringify(home.json)).toBe(200);
    expect(listed(home.json)).toEqual([
      [3, "modified"],
      [1, "added"],
    ]);
    expect(home.json.entries.map((e) => e.version.id)).toEqual([v3.versionId, v1.versionId]);
    expect(home.json.entries[0]!.version).toMatchObject({
      userRequest: "Change the home page",
      messageId: v3.answerId,
      isCurrent: true,
    });
    expect(home.json.entries[1]!.version.isCurrent).toBe(false);
    expect(home.json).toMatchObject({ path: "pages/Home.jsx", hasMore: false, nextBefore: null });

    const about = await historyOf(builder, app, "pages/About.jsx");
    expect(about.json.entries.map((e) => e.version.id)).toEqual([v2.versionId, v1.versionId]);

    // A path the app never had: no history (the dialog says 'No version history found for this file').
    const none = await historyOf(builder, app, "pages/Nowhere.jsx");
    expect(none.status).toBe(200);
    expect(none.json.entries).toEqual([]);
  });

  it("shows a deletion as deleted, and a file added again after it", async () => {
    const { builder, app, owner } = await spaceOf();
    await applyFileChanges(app.id, [write("styles.css", "a {}")], { kind: "edit", accountId: owner });
    const gone = (await applyFileChanges(app.id, [{ type: "delete_file", path: "styles.css" }], {
      kind: "edit",
      accountId: owner,
    }))!;
    await applyFileChanges(app.id, [write("other.js", "1")], { kind: "edit", accountId: owner });
    const back = (await applyFileChanges(app.id, [write("styles.css", "b {}")], {
      kind: "edit",
      accountId: owner,
    }))!;

    const res = await historyOf(builder, app, "styles.css");
    expect(listed(res.json)).toEqual([
      [4, "added"],
      [2, "deleted"],
      [1, "added"],
    ]);

    // At the deleting version: no content, and what it deleted as the content before.
    const atDeletion = await fileAt(builder, app, gone.id, "styles.css");
    expect(atDeletion.status).toBe(200);
    expect(atDeletion.json).toMatchObject({ change: "deleted", content: null, previousContent: "a {}" });
    const again = await fileAt(builder, app, back.id, "styles.css");
    expect(again.json).toMatchObject({ change: "added", content: "b {}", previousContent: null });
  });
});

describe("a file at a version", () => {
  it("is what was written then, and the version before's content beside it", async () => {
    const { builder, app, owner } = await spaceOf();
    const [v1, v2, v3] = await homeAboutHome(app, owner);

    const first = await fileAt(builder, app, v1.versionId!, "pages/Home.jsx");
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({
      path: "pages/Home.jsx",
      change: "added",
      content: "home 1",
      previousContent: null,
      version: { id: v1.versionId, number: 1, isCurrent: false },
    });
    // Version 2 did not change it: the same content, and no change of its own.
    expect((await fileAt(builder, app, v2.versionId!, "pages/Home.jsx")).json).toMatchObject({
      change: null,
      content: "home 1",
      previousContent: "home 1",
    });
    expect((await fileAt(builder, app, v3.versionId!, "pages/Home.jsx")).json).toMatchObject({
      change: "modified",
      content: "home 3",
      previousContent: "home 1",
      version: { isCurrent: true },
    });
    // Only the one file comes back, never the version's others.
    expect(Object.keys(first.json).sort()).toEqual([
      "change",
      "content",
      "path",
      "previousContent",
      "version",
    ]);

    // A path the version neither has nor deleted, a version that does not exist.
    const missing = await fileAt(builder, app, v1.versionId!, "pages/Later.jsx");
    expect(missing.status).toBe(404);
    expect(missing.json.error?.message).toBe(messages.fileNotFound);
    const unknown = await fileAt(builder, app, crypto.randomUUID(), "pages/Home.jsx");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error?.message).toBe(messages.versionNotFound);
  });

  it("against=current: the version's side beside the current file, and how they differ", async () => {
    const { builder, app, owner } = await spaceOf();
    const [v1] = await homeAboutHome(app, owner);
    await say(app, owner, {
      user: "Add a contact page, drop the about page",
      answer: "Done",
      changes: [write("pages/Contact.jsx", "contact"), { type: "delete_file", path: "pages/About.jsx" }],
    });
    const against = "&against=current";
    // Home: 'home 1' then, 'home 3' now.
    expect((await fileAt(builder, app, v1.versionId!, "pages/Home.jsx", against)).json).toMatchObject({
      change: "modified",
      content: "home 1",
      previousContent: "home 3",
    });
    // About: in version 1, gone now (merging version 1 would add it back).
    expect((await fileAt(builder, app, v1.versionId!, "pages/About.jsx", against)).json).toMatchObject({
      change: "added",
      content: "about 1",
      previousContent: null,
    });
    // Contact: only now (version 1 has none of it).
    expect((await fileAt(builder, app, v1.versionId!, "pages/Contact.jsx", against)).json).toMatchObject({
      change: "deleted",
      content: null,
      previousContent: "contact",
    });
    // Neither side has it.
    const missing = await fileAt(builder, app, v1.versionId!, "pages/Nowhere.jsx", against);
    expect(missing.status).toBe(404);
    expect(missing.json.error?.message).toBe(messages.fileNotFound);
  });
});

describe("a long history", () => {
  it(`pages by ${VERSIONS_LIST_MAX}, and a full listing of the chain adds no entries`, async () => {
    const { builder, app, owner } = await spaceOf();
    const total = SPACE_SNAPSHOT_INTERVAL + 20;
    const ids: string[] = [];
    const edit = { kind: "edit" as const, accountId: owner };
    ids.push(
      (await applyFileChanges(app.id, [write("counter.js", "n = 1"), write("stable.js", "same")], edit))!.id,
    );
    for (let n = 2; n <= total; n++) {
      ids.push((await applyFileChanges(app.id, [write("counter.js", `n = ${n}`)], edit))!.id);
    }

    const numbers: number[] = [];
    let before = "";
    const pages: number[] = [];
    for (;;) {
      const res = await historyOf(builder, app, "counter.js", before);
      expect(res.status).toBe(200);
      pages.push(res.json.entries.length);
      numbers.push(...res.json.entries.map((e) => e.version.number));
      if (!res.json.hasMore) {
        expect(res.json.nextBefore).toBeNull();
        break;
      }
      before = `&before=${res.json.nextBefore}`;
    }
    expect(pages).toEqual([VERSIONS_LIST_MAX, VERSIONS_LIST_MAX, total - 2 * VERSIONS_LIST_MAX]);
    expect(numbers).toEqual(Array.from({ length: total }, (_, i) => total - i));

    // A smaller page when asked; more than the most a page may ask is refused.
    const small = await historyOf(builder, app, "counter.js", "&limit=3&before=10");
    expect(small.json.entries.map((e) => e.version.number)).toEqual([9, 8, 7]);
    expect(small.json).toMatchObject({ hasMore: true, nextBefore: 7 });
    expect((await historyOf(builder, app, "counter.js", `&limit=${VERSIONS_LIST_MAX + 1}`)).status).toBe(400);

    // The full listing (a version every SPACE_SNAPSHOT_INTERVAL) repeats stable.js unchanged: not a change.
    const stable = await historyOf(builder, app, "stable.js");
    expect(listed(stable.json)).toEqual([[1, "added"]]);
    // Read past that listing and before it, the contents are those written then.
    const late = ids[total - 1]!;
    expect((await fileAt(builder, app, late, "stable.js")).json).toMatchObject({
      content: "same",
      change: null,
    });
    expect((await fileAt(builder, app, late, "counter.js")).json).toMatchObject({
      content: `n = ${total}`,
      previousContent: `n = ${total - 1}`,
    });
    expect((await fileAt(builder, app, ids[49]!, "counter.js")).json.content).toBe("n = 50");
  });
});

describe("who may call", () => {
  it("the owner and admins; another builder gets 404, an end user 403, a non-space app 400", async () => {
    const { builder, app, owner } = await spaceOf();
    const t1 = await say(app, owner, {
      user: "home",
      answer: "ok",
      changes: [write("pages/Home.jsx", "secret")],
    });
    const other = await createBuilder();
    const admin = await createBuilder({ isAdmin: true });
    const endUser = await createEndUser((await createPublishedApp(owner)).id);

    expect((await historyOf(other, app, "pages/Home.jsx")).status).toBe(404);
    expect((await fileAt(other, app, t1.versionId!, "pages/Home.jsx")).status).toBe(404);
    expect((await historyOf(endUser, app, "pages/Home.jsx")).status).toBe(403);
    expect((await fileAt(endUser, app, t1.versionId!, "pages/Home.jsx")).status).toBe(403);
    expect((await historyOf({ token: "" }, app, "pages/Home.jsx")).status).toBe(401);

    expect((await historyOf(admin, app, "pages/Home.jsx")).json.entries).toHaveLength(1);
    expect((await fileAt(admin, app, t1.versionId!, "pages/Home.jsx")).json.content).toBe("secret");

    // A version of another app is not found through this one.
    const mine = await spaceOf();
    expect((await fileAt(mine.builder, mine.app, t1.versionId!, "pages/Home.jsx")).status).toBe(404);

    const toolApp = await createPublishedApp(owner);
    for (const refused of [
      await historyOf(builder, toolApp, "pages/Home.jsx"),
      await fileAt(builder, toolApp, t1.versionId!, "pages/Home.jsx"),
    ]) {
      expect(refused.status).toBe(400);
      expect(refused.json.error?.message).toBe(messages.spaceNotSpaceApp);
    }

    // The path is required.
    const noPath = await call(fileHistoryRoute.GET, {
      method: "GET",
      path: `/api/apps/${app.id}/files/history`,
      params: { appId: app.id },
      token: builder.token,
    });
    expect(noPath.status).toBe(400);
  });
});
