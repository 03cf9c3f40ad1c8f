import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertApp, insertTool, updateToolAt, writeAppSettingsAt, writeAppStyleAt } from "@/db/queries/apps";
import { canViewApp, loadPublicApp, loadPublicAppTool, loadPublicToolByPath } from "@/lib/apps/public-app";
import { AppStyle } from "@/lib/apps/schemas";
import { presetStyle } from "@/lib/apps/style-presets";
import { loadSession } from "@/lib/auth/session";
import { createBuilder, createDraftApp, createEndUser, createPublishedApp } from "../support/factories";

// The loaders behind /app/{appId}, /app/{appId}/tool/{toolPath} and /tool/{path}, against the
// real database: who sees what (published, draft, owner, admin, stranger), tool paths found or
// not, and the watermark's default by the owner's plan.

async function sessionOf(token: string) {
  const session = await loadSession(token, "bearer");
  if (!session) throw new Error("no session");
  return session;
}

const uniquePath = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

async function generatedApp(ownerAccountId: string, status: "active" | "draft" = "active") {
  return insertApp({
    ownerAccountId,
    type: "generated",
    status,
    header: "Kitchen",
    content: { header: "Kitchen", description: "Tools for cooks" },
  });
}

async function addTool(
  appId: string,
  path: string,
  opts: { status?: "active" | "draft"; position?: number } = {},
) {
  const tool = await insertTool({
    appId,
    title: `Tool ${path}`,
    path,
    position: opts.position ?? 0,
    content: { header: `Header of ${path}`, examples: ["an example"] },
  });
  if (opts.status === "active")
    return (await updateToolAt(appId, tool.id, tool.revision, { status: "active" }))!;
  return tool;
}

describe("public app pages: who sees what", () => {
  it("shows a published app to everybody, with its content, style and settings", async () => {
    const owner = await createBuilder({ plan: "lite" });
    const app = await insertApp({
      ownerAccountId: owner.account.accountId,
      status: "active",
      header: "Recipe Wizard",
      content: {
        header: "Recipe Wizard",
        description: "Cook better",
        examples: ["Pasta"],
        resultsLayout: "cards",
      },
    });
    await writeAppStyleAt(app.id, 0, presetStyle("dark"));

    const stranger = await createBuilder();
    const endUser = await createEndUser(app.id);
    for (const session of [null, await sessionOf(stranger.token), await sessionOf(endUser.token)]) {
      const page = await loadPublicApp(app.id, session);
      expect(page).toMatchObject({
        appId: app.id,
        appType: "tool",
        title: "Recipe Wizard",
        draft: false,
        published: true,
        mainPage: "home",
        content: { description: "Cook better", examples: ["Pasta"], resultsLayout: "cards", inputLabel: "" },
        style: { styleName: "dark", background: "#000000", headerTextColor: "#FFFFFF" },
        // Nobody here is its builder: the page offers no run's data.
        builderView: false,
      });
      expect(page?.tools).toBeUndefined();
    }
    expect((await loadPublicApp(app.id, await sessionOf(owner.token)))?.builderView).toBe(true);
  });

  it("shows a draft only to its owner and to admins, marked as a draft; everybody else gets 404", async () => {
    const owner = await createBuilder();
    const app = await createDraftApp(owner.account.accountId, "Secret Plans");
    const admin = await createBuilder({ isAdmin: true, plan: "moon" });
    const stranger = await createBuilder({ plan: "moon" });
    const endUser = await createEndUser((await createPublishedApp(owner.account.accountId)).id);

    for (const viewer of [owner, admin]) {
      const page = await loadPublicApp(app.id, await sessionOf(viewer.token));
      expect(page).toMatchObject({
        appId: app.id,
        draft: "app",
        published: false,
        title: "Secret Plans",
        builderView: true,
      });
    }
    expect(await loadPublicApp(app.id, null)).toBeNull();
    expect(await loadPublicApp(app.id, await sessionOf(stranger.token))).toBeNull();
    // An end user of another app of the same owner is not the owner.
    expect(await loadPublicApp(app.id, await sessionOf(endUser.token))).toBeNull();
    expect(canViewApp(null, app)).toBe(false);
  });

  it("answers 404 for ids that are not apps", async () => {
    expect(await loadPublicApp("not-a-uuid", null)).toBeNull();
    expect(await loadPublicApp(crypto.randomUUID(), null)).toBeNull();
  });

  it("names an app saved before the editor by its header column", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId, "Old Name");
    const page = await loadPublicApp(app.id, null);
    expect(page?.title).toBe("Old Name");
    expect(page?.content.header).toBe("Old Name");
    // No style saved yet: the light preset's defaults (the watermark's switch is decided apart).
    const { hideBuildAI: _, ...light } = AppStyle.parse(presetStyle("light"));
    expect(page?.style).toEqual(light);
  });
});

describe("the watermark", () => {
  it("shows on free plans and hides on paid plans by default; the style's switch wins either way", async () => {
    const lite = await createBuilder({ plan: "lite" });
    const paid = await createBuilder({ plan: "explorer" });
    const liteApp = await createPublishedApp(lite.account.accountId);
    const paidApp = await createPublishedApp(paid.account.accountId);

    expect((await loadPublicApp(liteApp.id, null))?.watermarkHidden).toBe(false);
    expect((await loadPublicApp(paidApp.id, null))?.watermarkHidden).toBe(true);

    await writeAppStyleAt(liteApp.id, 0, { ...presetStyle("light"), hideBuildAI: true });
    await writeAppStyleAt(paidApp.id, 0, { ...presetStyle("light"), hideBuildAI: false });
    expect((await loadPublicApp(liteApp.id, null))?.watermarkHidden).toBe(true);
    expect((await loadPublicApp(paidApp.id, null))?.watermarkHidden).toBe(false);
  });
});

describe("generated apps and their tools", () => {
  it("lists only active tools on the main page, in order, with the settings' main page", async () => {
    const owner = await createBuilder({ plan: "moon" });
    const app = await generatedApp(owner.account.accountId);
    await addTool(app.id, "second", { status: "active", position: 2 });
    await addTool(app.id, "first", { status: "active", position: 1 });
    await addTool(app.id, "hidden", { status: "draft", position: 0 });
    await writeAppSettingsAt(app.id, 0, { mainPage: "tools" });

    for (const session of [null, await sessionOf(owner.token)]) {
      const page = await loadPublicApp(app.id, session);
      expect(page?.mainPage).toBe("tools");
      expect(page?.tools).toEqual([
        { title: "Tool first", path: "first", imageUrl: null },
        { title: "Tool second", path: "second", imageUrl: null },
      ]);
    }
  });

  it("finds a tool by path whatever the case; a draft tool only for the builder; others are not found", async () => {
    const owner = await createBuilder({ plan: "moon" });
    const stranger = await createBuilder();
    const app = await generatedApp(owner.account.accountId);
    await addTool(app.id, "Meal-Planner", { status: "active" });
    await addTool(app.id, "soon", { status: "draft" });

    const page = await loadPublicAppTool(app.id, "meal-planner", null);
    expect(page).toMatchObject({
      appId: app.id,
      appType: "generated",
      appHeader: "Kitchen",
      title: "Header of Meal-Planner",
      draft: false,
      content: { header: "Header of Meal-Planner", examples: ["an example"] },
    });
    expect(page?.tools).toBeUndefined();

    expect(await loadPublicAppTool(app.id, "soon", null)).toBeNull();
    expect(await loadPublicAppTool(app.id, "soon", await sessionOf(stranger.token))).toBeNull();
    expect(await loadPublicAppTool(app.id, "soon", await sessionOf(owner.token))).toMatchObject({
      draft: "tool",
    });

    expect(await loadPublicAppTool(app.id, "nothing-here", await sessionOf(owner.token))).toBeNull();
    expect(await loadPublicAppTool(app.id, "../etc", null)).toBeNull();
    expect(await loadPublicAppTool(crypto.randomUUID(), "meal-planner", null)).toBeNull();
  });

  it("hides the tools of a draft app from visitors and shows them to the builder with the app's banner", async () => {
    const owner = await createBuilder({ plan: "moon" });
    const app = await generatedApp(owner.account.accountId, "draft");
    await addTool(app.id, "live-one", { status: "active" });
    expect(await loadPublicAppTool(app.id, "live-one", null)).toBeNull();
    expect(await loadPublicAppTool(app.id, "live-one", await sessionOf(owner.token))).toMatchObject({
      draft: "app",
    });
  });

  it("has no tool pages for single-tool apps", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    expect(await loadPublicAppTool(app.id, "anything", null)).toBeNull();
  });
});

describe("/tool/{path}", () => {
  it("opens the oldest published app's active tool with that path, and nothing else", async () => {
    const owner = await createBuilder({ plan: "moon" });
    const path = uniquePath("shared");

    const draftApp = await generatedApp(owner.account.accountId, "draft");
    await addTool(draftApp.id, path, { status: "active" });
    expect(await loadPublicToolByPath(path)).toBeNull();

    const published = await generatedApp(owner.account.accountId);
    await addTool(published.id, path, { status: "draft" });
    expect(await loadPublicToolByPath(path)).toBeNull();

    const first = await generatedApp(owner.account.accountId);
    await addTool(first.id, path, { status: "active" });
    const later = await generatedApp(owner.account.accountId);
    await addTool(later.id, path.toUpperCase(), { status: "active" });

    expect(await loadPublicToolByPath(path.toUpperCase())).toMatchObject({ appId: first.id, draft: false });
    expect(await loadPublicToolByPath(uniquePath("missing"))).toBeNull();
    expect(await loadPublicToolByPath("bad path")).toBeNull();
  });
});

describe("what a public page holds", () => {
  it("holds none of the hidden settings of an app or a tool, whoever looks: only what the page shows", async () => {
    const SECRET = `hidden${crypto.randomUUID().slice(0, 8)}`;
    const field = {
      name: "topic",
      label: "Topic",
      type: "select",
      required: true,
      personal: true,
      instructions: `${SECRET}-field`,
      filterCondition: "include",
      options: [{ label: "Calm", iconUrl: null }],
      placeholder: "Pick one",
    };
    const hidden = {
      description: "Visible",
      fields: [field],
      gptPrompt: `${SECRET}-prompt`,
      blocks: [{ type: "instructions", text: `${SECRET}-block` }],
      background: `${SECRET}-background`,
    };
    const owner = await createBuilder();
    const single = await insertApp({
      ownerAccountId: owner.account.accountId,
      status: "active",
      header: "Single",
      content: { ...hidden, header: "Single", features: [`${SECRET}-f`], chatSettings: { a: `${SECRET}-c` } },
    });
    await writeAppStyleAt(single.id, 0, AppStyle.parse({ hideBuildAI: true }));
    const hub = await generatedApp(owner.account.accountId);
    const path = uniquePath("secret");
    const tool = await insertTool({ appId: hub.id, title: "T", path, position: 0, content: hidden });
    await updateToolAt(hub.id, tool.id, tool.revision, { status: "active" });

    const admin = await sessionOf((await createBuilder({ isAdmin: true })).token);
    for (const session of [null, await sessionOf((await createEndUser(single.id)).token), admin]) {
      const pages = [
        await loadPublicApp(single.id, session),
        await loadPublicAppTool(hub.id, path, session),
        await loadPublicToolByPath(path),
      ];
      for (const page of pages) {
        expect(page?.content.description).toBe("Visible");
        expect(page?.content.fields).toEqual([
          {
            name: "topic",
            label: "Topic",
            type: "select",
            required: true,
            memorize: false,
            stepId: null,
            options: [{ label: "Calm", iconUrl: null }],
            placeholder: "Pick one",
          },
        ]);
        expect(JSON.stringify(page)).not.toContain(SECRET);
        expect(page?.style).not.toHaveProperty("hideBuildAI");
      }
    }
  });
});
