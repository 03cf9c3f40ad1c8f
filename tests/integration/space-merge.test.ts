import { describe, expect, it } from "vitest";
import * as mergeRoute from "@/app/api/apps/[appId]/merge/route";
import { listAppFilesWithContent } from "@/db/queries/space-files";
import type { App } from "@/db/schema";
import { listFunctions } from "@/lib/functions/deploy";
import type { MergeAnswer } from "@/lib/functions/schemas";
import { messages } from "@/lib/messages";
import { startExchange } from "@/lib/space/chat";
import { listAppVersions } from "@/lib/space/versions";
import { createBuilder } from "../support/factories";
import { type Answer, call } from "../support/http";
import { createSpaceApp, say } from "../support/space";

// Merging chosen files into a space app's current files: only the added and modified ones become
// one version of kind "merge"; the functions among them are deployed, a failed deploy named
// without undoing the merge; the spec's refusals leave the files as they were.

const HOOK = `export default () => new Response("hook v1");\n`;
const HOOK_2 = `export default () => new Response("hook v2");\n`;
const BROKEN = `export default () => { return new Response("x" ;\n`;

async function appWithHistory() {
  const b = await createBuilder();
  const app = await createSpaceApp(b.account.accountId);
  await say(app, b.account.accountId, {
    user: "first",
    answer: "v1",
    changes: [
      { type: "add_file", path: "pages/Home.jsx", content: "export default () => <h1>One</h1>;\n" },
      { type: "add_file", path: "pages/About.jsx", content: "export default () => <p>About</p>;\n" },
      { type: "add_file", path: "functions/hook.ts", content: HOOK },
    ],
  });
  await say(app, b.account.accountId, {
    user: "second",
    answer: "v2",
    changes: [
      { type: "add_file", path: "pages/Home.jsx", content: "export default () => <h1>Two</h1>;\n" },
      { type: "delete_file", path: "pages/About.jsx" },
      { type: "add_file", path: "pages/New.jsx", content: "export default () => <p>New</p>;\n" },
    ],
  });
  return { b, app };
}

const merge = (app: App, token: string, body: unknown) =>
  call<MergeAnswer & Answer>(mergeRoute.POST, {
    method: "POST",
    path: `/api/apps/${app.id}/merge`,
    params: { appId: app.id },
    token,
    body,
  });

const filesOf = async (app: App) =>
  Object.fromEntries((await listAppFilesWithContent(app.id)).map((f) => [f.path, f.content]));

describe("POST /api/apps/{appId}/merge", () => {
  it("merges only the chosen added and modified files as one version; the rest stays", async () => {
    const { b, app } = await appWithHistory();
    const res = await merge(app, b.token, {
      files: [
        { id: "1", path: "pages/Home.jsx", content: "export default () => <h1>One</h1>;\n" },
        { id: "2", path: "pages/About.jsx", content: "export default () => <p>About</p>;\n" },
        // Unchanged, and a deletion: neither counts.
        { id: "3", path: "pages/New.jsx", content: "export default () => <p>New</p>;\n" },
        { id: "4", path: "functions/hook.ts", content: null },
      ],
      description: "Back to the first home page",
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      filesCount: 2,
      totalFunctions: 0,
      deployedFunctionsCount: 0,
      deploymentIssues: [],
      deploymentMessage: null,
      versionNumber: 3,
    });
    expect(res.json.message).toBe("Merged 2 file(s) as version 3");
    expect(await filesOf(app)).toEqual({
      "pages/Home.jsx": "export default () => <h1>One</h1>;\n",
      "pages/About.jsx": "export default () => <p>About</p>;\n",
      "pages/New.jsx": "export default () => <p>New</p>;\n",
      "functions/hook.ts": HOOK,
    });
    const versions = await listAppVersions(app, 10);
    expect(versions.versions[0]).toMatchObject({ kind: "merge", description: "Back to the first home page" });
    // The chat shows the merge as a notice holding the new version, as it shows a restore.
    expect(res.json.messages).toEqual([
      expect.objectContaining({ role: "assistant", kind: "merge", content: "Back to the first home page" }),
    ]);
    expect(res.json.messages[0]!.annotations[0]).toMatchObject({ versionId: res.json.versionId });
    expect(versions.versions[0]!.messageId).toBe(res.json.messages[0]!.id);
  });

  it("deploys the merged functions; one that fails is named and the merge stays", async () => {
    const { b, app } = await appWithHistory();
    const ok = await merge(app, b.token, { files: [{ path: "functions/hook.ts", content: HOOK_2 }] });
    expect(ok.json).toMatchObject({ filesCount: 1, totalFunctions: 1, deployedFunctionsCount: 1 });
    const listed = await listFunctions(app);
    expect(listed.functions).toEqual([expect.objectContaining({ name: "hook", state: "success" })]);

    const bad = await merge(app, b.token, {
      files: [
        { path: "functions/hook.ts", content: BROKEN },
        { path: "functions/other.ts", content: HOOK },
      ],
    });
    expect(bad.status).toBe(200);
    expect(bad.json).toMatchObject({ filesCount: 2, totalFunctions: 2, deployedFunctionsCount: 1 });
    expect(bad.json.deploymentIssues).toEqual([
      expect.objectContaining({ name: "hook", state: "error", message: messages.functionDeployFailed }),
    ]);
    expect(bad.json.deploymentMessage).toBe("1 function(s) failed to deploy");
    expect((await filesOf(app))["functions/hook.ts"]).toBe(BROKEN);
  });

  it("says 'No changes to merge' and 'No files to merge …', and refuses a bad entity, changing nothing", async () => {
    const { b, app } = await appWithHistory();
    const before = await filesOf(app);
    const same = await merge(app, b.token, {
      files: [{ path: "pages/New.jsx", content: before["pages/New.jsx"] }],
    });
    expect(same.status).toBe(400);
    expect(same.json.error?.message).toBe("No changes to merge");
    for (const files of [[], [{ path: "pages/Home.jsx", content: null }]]) {
      const none = await merge(app, b.token, { files });
      expect(none.status).toBe(400);
      expect(none.json.error?.message).toBe(
        "No files to merge (only additions and modifications are supported)",
      );
    }
    const entity = await merge(app, b.token, {
      files: [
        { path: "pages/Home.jsx", content: "changed" },
        { path: "entities/Task.json", content: "[not an object" },
      ],
    });
    expect(entity.status).toBe(400);
    for (const path of ["../etc/passwd", "/abs.jsx", "pages/\u0000.jsx"]) {
      const hostile = await merge(app, b.token, { files: [{ path, content: "x" }] });
      expect(hostile.status).toBeGreaterThanOrEqual(400);
      expect(hostile.status).toBeLessThan(500);
    }
    expect(await filesOf(app)).toEqual(before);
    expect((await listAppVersions(app, 10)).versions).toHaveLength(2);
  });

  it("waits for an answer being written: 409, nothing merged", async () => {
    const { b, app } = await appWithHistory();
    await startExchange(app, b.account.accountId, { user: { content: "more" } });
    const res = await merge(app, b.token, { files: [{ path: "pages/Home.jsx", content: "x" }] });
    expect(res.status).toBe(409);
    expect((await filesOf(app))["pages/Home.jsx"]).toBe("export default () => <h1>Two</h1>;\n");
  });

  it("is the app's builder's: another builder sees no such app", async () => {
    const { app } = await appWithHistory();
    const other = await createBuilder();
    const res = await merge(app, other.token, { files: [{ path: "pages/Home.jsx", content: "x" }] });
    expect(res.status).toBe(404);
  });
});
