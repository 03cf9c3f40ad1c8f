import { describe, expect, it } from "vitest";
import * as deleteRoute from "@/app/api/apps/[appId]/files/delete/route";
import * as filesRoute from "@/app/api/apps/[appId]/files/route";
import * as updateRoute from "@/app/api/apps/[appId]/files/update/route";
import { findVersion, listVersionChanges } from "@/db/queries/space-versions";
import type { App } from "@/db/schema";
import { SPACE_FILE_MAX_BYTES } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { CodeFiles, DeleteFileResult, UpdateFileResult } from "@/lib/space/code-schemas";
import { hashContent } from "@/lib/space/files";
import { referencesTo } from "@/lib/space/import-references";
import { readCurrentFiles } from "@/lib/space/versions";
import { fillTemplate } from "@/lib/text";
import { createBuilder } from "../support/factories";
import { type Answer, call } from "../support/http";
import { createSpaceApp, say } from "../support/space";

// The Code panel's routes against the real database: the file list with revisions, an admin's
// save as a version of kind "edit", the 409 of a save that lost to the chat (with the file as it is
// now), read-only entities and non-admins refused, a delete with the files that imported it.

type Who = { token: string };

const HOME = "export default function Home() {\n  return <main>Hello</main>;\n}\n";
const BANNER = "export default function Banner() {\n  return <p>Sale</p>;\n}\n";
const HOME_WITH_BANNER = `import Banner from "../components/Banner";\n${HOME}`;

async function setUp() {
  const owner = await createBuilder();
  const admin = await createBuilder({ isAdmin: true });
  const app = await createSpaceApp(owner.account.accountId);
  await say(app, owner.account.accountId, {
    user: "A home page with a banner",
    answer: "Done",
    changes: [
      { type: "add_file", path: "pages/Home.jsx", content: HOME_WITH_BANNER },
      { type: "add_file", path: "components/Banner.jsx", content: BANNER },
      { type: "add_file", path: "pages/About.jsx", content: 'import Banner from "@/components/Banner";\n' },
      { type: "add_entity", name: "Note", content: '{"type":"object"}' },
    ],
  });
  return { owner, admin, app };
}

const list = (who: Who, app: App) =>
  call<Answer & CodeFiles>(filesRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/files`,
    params: { appId: app.id },
    token: who.token,
  });

const save = (who: Who, app: App, body: unknown) =>
  call<Answer & UpdateFileResult & { current?: { content: string; revision: string } }>(updateRoute.POST, {
    path: `/api/apps/${app.id}/files/update`,
    params: { appId: app.id },
    token: who.token,
    body,
  });

const remove = (who: Who, app: App, body: unknown) =>
  call<Answer & DeleteFileResult>(deleteRoute.POST, {
    path: `/api/apps/${app.id}/files/delete`,
    params: { appId: app.id },
    token: who.token,
    body,
  });

const contentOf = async (app: App, path: string) =>
  (await readCurrentFiles(app)).find((f) => f.path === path)?.content;

describe("the Code panel's files", () => {
  it("lists the current files with their kind, read-only flag and revision; only admins may edit", async () => {
    const { owner, admin, app } = await setUp();
    const asOwner = await list(owner, app);
    expect(asOwner.status).toBe(200);
    expect(asOwner.json.canEdit).toBe(false);
    const home = asOwner.json.files.find((f) => f.path === "pages/Home.jsx")!;
    expect(home).toMatchObject({ type: "pages", readOnly: false, revision: hashContent(HOME_WITH_BANNER) });
    expect(asOwner.json.files.find((f) => f.path === "entities/Note.json")).toMatchObject({
      type: "entities",
      readOnly: true,
    });
    expect((await list(admin, app)).json.canEdit).toBe(true);
  });

  it("saves an admin's edit as a version of kind edit, naming the file", async () => {
    const { admin, app } = await setUp();
    const edited = HOME_WITH_BANNER.replace("Hello", "Hello, world");
    const res = await save(admin, app, {
      file: { id: "pages/Home.jsx", content: edited },
      revision: hashContent(HOME_WITH_BANNER),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.file).toMatchObject({
      path: "pages/Home.jsx",
      content: edited,
      revision: hashContent(edited),
    });
    const version = (await findVersion(app.id, res.json.versionId!))!;
    expect(version.kind).toBe("edit");
    expect(version.createdByAccountId).toBe(admin.account.accountId);
    expect(version.description).toBe(fillTemplate(messages.codeVersionEdited, { path: "pages/Home.jsx" }));
    expect((await listVersionChanges(app.id, version.id)).map((c) => [c.path, c.change])).toEqual([
      ["pages/Home.jsx", "modified"],
    ]);
    expect(await contentOf(app, "pages/Home.jsx")).toBe(edited);

    // The same text again (a retry): no new version, no conflict.
    const again = await save(admin, app, {
      file: { id: "pages/Home.jsx", content: edited },
      revision: hashContent(HOME_WITH_BANNER),
    });
    expect(again.status).toBe(200);
    expect(again.json.versionId).toBeNull();
  });

  it("answers 409 with the file as it is now when the chat changed it since, and saves over it when told its revision", async () => {
    const { owner, admin, app } = await setUp();
    const loaded = hashContent(HOME_WITH_BANNER);
    const theirs = HOME_WITH_BANNER.replace("Hello", "From the chat");
    await say(app, owner.account.accountId, {
      user: "Change the greeting",
      answer: "Done",
      changes: [{ type: "edit_file", path: "pages/Home.jsx", content: theirs }],
    });
    const mine = HOME_WITH_BANNER.replace("Hello", "Mine");
    const lost = await save(admin, app, { file: { id: "pages/Home.jsx", content: mine }, revision: loaded });
    expect(lost.status).toBe(409);
    expect(lost.json.error).toMatchObject({
      code: "FILE_CHANGED",
      message: fillTemplate(messages.codeFileChanged, { path: "pages/Home.jsx" }),
    });
    expect(lost.json.current).toEqual({
      path: "pages/Home.jsx",
      content: theirs,
      revision: hashContent(theirs),
    });
    expect(await contentOf(app, "pages/Home.jsx")).toBe(theirs);

    // "Keep mine": the save names the revision it now knows it overwrites.
    const kept = await save(admin, app, {
      file: { id: "pages/Home.jsx", content: mine },
      revision: lost.json.current!.revision,
    });
    expect(kept.status).toBe(200);
    expect(await contentOf(app, "pages/Home.jsx")).toBe(mine);
  });

  it("refuses read-only files (edit and delete) and builders who are not admins, changing nothing", async () => {
    const { owner, admin, app } = await setUp();
    const entity = await save(admin, app, {
      file: { id: "entities/Note.json", content: '{"type":"object","properties":{}}' },
      revision: hashContent('{"type":"object"}'),
    });
    expect(entity.status).toBe(403);
    expect(entity.json.error!.message).toBe(
      fillTemplate(messages.codeFileReadOnly, { path: "entities/Note.json" }),
    );
    const entityDelete = await remove(admin, app, { fileId: "entities/Note.json" });
    expect(entityDelete.status).toBe(403);
    const asReference = await remove(admin, app, {
      fileId: "components/Banner.jsx",
      referencesToUpdate: [{ path: "entities/Note.json", content: "{}" }],
    });
    expect(asReference.status).toBe(403);

    const byOwner = await save(owner, app, {
      file: { id: "pages/Home.jsx", content: "x" },
      revision: hashContent(HOME_WITH_BANNER),
    });
    expect(byOwner.status).toBe(403);
    expect(byOwner.json.error!.message).toBe(messages.codeEditAdminOnly);
    expect((await remove(owner, app, { fileId: "pages/About.jsx" })).status).toBe(403);

    const files = await readCurrentFiles(app);
    expect(files.map((f) => f.path).sort()).toEqual([
      "components/Banner.jsx",
      "entities/Note.json",
      "pages/About.jsx",
      "pages/Home.jsx",
    ]);
    expect(await contentOf(app, "pages/Home.jsx")).toBe(HOME_WITH_BANNER);
  });

  it("deletes a file and updates the files that imported it, as one version of kind edit", async () => {
    const { admin, app } = await setUp();
    const listed = (await list(admin, app)).json.files;
    const refs = referencesTo(listed, "components/Banner.jsx");
    expect(refs.map((r) => r.path)).toEqual(["pages/About.jsx", "pages/Home.jsx"]);
    const res = await remove(admin, app, {
      fileId: "components/Banner.jsx",
      revision: hashContent(BANNER),
      referencesToUpdate: refs,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.deleted).toBe("components/Banner.jsx");
    expect(res.json.updated.map((f) => f.path)).toEqual(["pages/About.jsx", "pages/Home.jsx"]);
    const version = (await findVersion(app.id, res.json.versionId))!;
    expect(version.kind).toBe("edit");
    expect((await listVersionChanges(app.id, version.id)).map((c) => [c.path, c.change]).sort()).toEqual([
      ["components/Banner.jsx", "deleted"],
      ["pages/About.jsx", "modified"],
      ["pages/Home.jsx", "modified"],
    ]);
    expect(await contentOf(app, "components/Banner.jsx")).toBeUndefined();
    expect(await contentOf(app, "pages/Home.jsx")).toBe(HOME);
    expect(await contentOf(app, "pages/About.jsx")).toBe("");
  });

  it("refuses a delete whose file or reference changed since it was loaded (409), and a missing file (404)", async () => {
    const { admin, app } = await setUp();
    const stale = await remove(admin, app, { fileId: "components/Banner.jsx", revision: hashContent("old") });
    expect(stale.status).toBe(409);
    const staleRef = await remove(admin, app, {
      fileId: "components/Banner.jsx",
      referencesToUpdate: [{ path: "pages/Home.jsx", content: HOME, revision: hashContent("old") }],
    });
    expect(staleRef.status).toBe(409);
    expect((await remove(admin, app, { fileId: "pages/Nope.jsx" })).status).toBe(404);
    const newRef = await remove(admin, app, {
      fileId: "components/Banner.jsx",
      referencesToUpdate: [{ path: "pages/New.jsx", content: "x" }],
    });
    expect(newRef.status).toBe(404);
    expect(await contentOf(app, "components/Banner.jsx")).toBe(BANNER);
  });

  it("answers 400, never a 5xx, to a NUL, a lone surrogate, a huge file, a bad path or a broken body", async () => {
    const { admin, app } = await setUp();
    const revision = hashContent(HOME_WITH_BANNER);
    const bodies: unknown[] = [
      { file: { id: "pages/Home.jsx", content: "a\u0000b" }, revision },
      { file: { id: "pages/Home.jsx", content: "a\uD800b" }, revision },
      { file: { id: "pages/Home.jsx", content: "é".repeat(SPACE_FILE_MAX_BYTES / 2 + 1) }, revision },
      { file: { id: "../etc/passwd", content: "x" }, revision },
      { file: { id: "pages/Home.jsx\u0000", content: "x" }, revision },
      { file: { id: "pages/Home.jsx", content: "x" }, revision: "nope" },
      { file: { id: "pages/Home.jsx" }, revision },
      { file: "pages/Home.jsx", revision },
      [],
    ];
    for (const body of bodies) {
      const res = await save(admin, app, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const broken = await call(updateRoute.POST, {
      path: `/api/apps/${app.id}/files/update`,
      params: { appId: app.id },
      token: admin.token,
      rawBody: '{"file": {"id": "pages/Home.jsx", "content": "\\ud83',
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).toBe(400);
    const huge = await call(updateRoute.POST, {
      path: `/api/apps/${app.id}/files/update`,
      params: { appId: app.id },
      token: admin.token,
      rawBody: JSON.stringify({
        file: { id: "pages/Home.jsx", content: "x".repeat(5 * SPACE_FILE_MAX_BYTES) },
      }),
      headers: { "content-type": "application/json" },
    });
    expect(huge.status).toBe(413);
    expect(await contentOf(app, "pages/Home.jsx")).toBe(HOME_WITH_BANNER);
  });
});
