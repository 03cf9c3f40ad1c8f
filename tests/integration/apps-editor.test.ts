import crypto from "node:crypto";
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as appRoute from "@/app/api/apps/[appId]/route";
import * as claimInvitationRoute from "@/app/api/apps/[appId]/settings/claimInvitation/route";
import * as settingsRoute from "@/app/api/apps/[appId]/settings/route";
import * as statusRoute from "@/app/api/apps/[appId]/status/route";
import * as styleRoute from "@/app/api/apps/[appId]/style/route";
import * as toolRoute from "@/app/api/apps/[appId]/tools/[toolId]/route";
import * as orderRoute from "@/app/api/apps/[appId]/tools/order/route";
import * as toolsRoute from "@/app/api/apps/[appId]/tools/route";
import * as claimRoute from "@/app/api/apps/claim/route";
import * as appsRoute from "@/app/api/apps/route";
import { db } from "@/db/client";
import { appSettings, appStyles, apps, tools } from "@/db/schema";
import type { CustomField } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Json = Record<string, unknown> & { error?: { code: string; message: string } };

const field = (name: string, more: Partial<CustomField> = {}) => ({
  name,
  label: name,
  type: "text",
  ...more,
});

async function createApp(b: Builder, appType: "tool" | "generated" | "space" = "tool", header = "My app") {
  const appId = crypto.randomUUID();
  const res = await call<Json>(appsRoute.POST, {
    path: "/api/apps",
    token: b.token,
    body: { appId, appType, [appType === "generated" ? "genApp" : "app"]: { header, appBuilderVersion: 4 } },
  });
  expect(res.status).toBe(200);
  return appId;
}

const getApp = (b: Builder, appId: string) =>
  call<
    Json & {
      revision: number;
      app: Record<string, unknown>;
      style: { revision: number };
      settings: { revision: number };
    }
  >(appRoute.GET, { method: "GET", path: `/api/apps/${appId}`, params: { appId }, token: b.token });

async function save(b: Builder, appId: string, app: Record<string, unknown>, baseRevision?: number) {
  const base = baseRevision ?? (await getApp(b, appId)).json.revision;
  return call<Json & { revision: number; app: Record<string, unknown> }>(appRoute.PATCH, {
    method: "PATCH",
    path: `/api/apps/${appId}`,
    params: { appId },
    token: b.token,
    body: { baseRevision: base, app },
  });
}

async function saveSettings(b: Builder, appId: string, appSettingsPatch: Record<string, unknown>) {
  const base = (await getApp(b, appId)).json.settings.revision;
  return call<Json>(settingsRoute.POST, {
    path: `/api/apps/${appId}/settings`,
    params: { appId },
    token: b.token,
    body: { baseRevision: base, appSettings: appSettingsPatch },
  });
}

const publish = (b: Builder, appId: string, status: "active" | "draft" = "active") =>
  call<Json>(statusRoute.POST, {
    path: `/api/apps/${appId}/status`,
    params: { appId },
    token: b.token,
    body: { status },
  });

const addTool = (b: Builder, appId: string, title: string, path: string) =>
  call<Json & { toolId: string; revision: number }>(toolsRoute.POST, {
    path: `/api/apps/${appId}/tools`,
    params: { appId },
    token: b.token,
    body: { title, path },
  });

const patchTool = (
  b: Builder,
  appId: string,
  toolId: string,
  baseRevision: number,
  tool: Record<string, unknown>,
) =>
  call<Json & { revision: number; status: string }>(toolRoute.PATCH, {
    method: "PATCH",
    path: `/api/apps/${appId}/tools/${toolId}`,
    params: { appId, toolId },
    token: b.token,
    body: { baseRevision, tool },
  });

let lite: Builder;
let explorer: Builder;
let moon: Builder;
let admin: Builder;
let stranger: Builder;

beforeAll(async () => {
  [lite, explorer, moon, admin, stranger] = await Promise.all([
    createBuilder(),
    createBuilder({ plan: "explorer" }),
    createBuilder({ plan: "moon" }),
    createBuilder({ isAdmin: true, plan: "moon" }),
    createBuilder({ plan: "moon" }),
  ]);
});

describe("creating and listing apps", () => {
  it("a retried create makes one app, and answers the same app", async () => {
    const appId = crypto.randomUUID();
    const body = { appId, appType: "tool", app: { header: "Twice", appBuilderVersion: 4 } };
    const [first, second] = await Promise.all([
      call<Json>(appsRoute.POST, { path: "/api/apps", token: lite.token, body }),
      call<Json>(appsRoute.POST, { path: "/api/apps", token: lite.token, body }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.json.created, second.json.created].sort()).toEqual([false, true]);
    const [row] = await db().select({ n: count() }).from(apps).where(eq(apps.id, appId));
    expect(row?.n).toBe(1);
  });

  it("another builder cannot take over an id that exists (409), nor see the app (404)", async () => {
    const appId = await createApp(lite);
    const res = await call<Json>(appsRoute.POST, {
      path: "/api/apps",
      token: stranger.token,
      body: { appId, appType: "tool", app: { header: "Mine now", appBuilderVersion: 4 } },
    });
    expect(res.status).toBe(409);
    expect((await getApp(stranger, appId)).status).toBe(404);
    expect((await getApp(lite, appId)).json.app.header).toBe("My app");
  });

  it("refuses another app builder version", async () => {
    const res = await call<Json>(appsRoute.POST, {
      path: "/api/apps",
      token: lite.token,
      body: { appId: crypto.randomUUID(), appType: "tool", app: { appBuilderVersion: 3 } },
    });
    expect(res.status).toBe(400);
  });

  it("lists the builder's apps, last edited first, with kinds, states and tool counts", async () => {
    const b = await createBuilder({ plan: "moon" });
    const first = await createApp(b, "tool", "First");
    const gen = await createApp(b, "generated", "Generated");
    await addTool(b, gen, "One", "one");
    await addTool(b, gen, "Two", "two");
    await save(b, first, { description: "edited last" });
    const res = await call<{
      apps: { appId: string; appType: string; status: string; toolsCount: number }[];
    }>(appsRoute.GET, { method: "GET", path: "/api/apps", token: b.token });
    expect(res.json.apps.map((a) => a.appId)).toEqual([first, gen]);
    expect(res.json.apps[1]).toMatchObject({ appType: "generated", status: "draft", toolsCount: 2 });
  });
});

describe("saving app fields at a revision", () => {
  it("saves a partial object, keeps the other fields, and moves the revision on", async () => {
    const appId = await createApp(lite);
    const before = await getApp(lite, appId);
    const res = await save(lite, appId, { description: "Plans meals" }, before.json.revision);
    expect(res.status).toBe(200);
    expect(res.json.revision).toBe(before.json.revision + 1);
    expect(res.json.app).toMatchObject({
      header: "My app",
      description: "Plans meals",
      appBuilderVersion: 4,
    });
  });

  it("a save based on an older revision answers 409 with the current app and writes nothing", async () => {
    const appId = await createApp(lite);
    const base = (await getApp(lite, appId)).json.revision;
    expect((await save(lite, appId, { header: "Tab one" }, base)).status).toBe(200);
    const stale = await save(lite, appId, { header: "Tab two" }, base);
    expect(stale.status).toBe(409);
    expect(stale.json.error?.message).toBe(messages.saveConflict);
    expect((stale.json.current as { app: { header: string } }).app.header).toBe("Tab one");
    expect((await getApp(lite, appId)).json.app.header).toBe("Tab one");
  });

  it("of parallel saves based on one revision, exactly one wins", async () => {
    const appId = await createApp(lite);
    const base = (await getApp(lite, appId)).json.revision;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => save(lite, appId, { header: `Writer ${i}` }, base)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
  });

  it("refuses unknown keys and bad values with 400, writing nothing", async () => {
    const appId = await createApp(lite);
    expect((await save(lite, appId, { isAdmin: true })).status).toBe(400);
    expect((await save(lite, appId, { examples: ["a", "b", "c", "d"] })).status).toBe(400);
    expect((await getApp(lite, appId)).json.app.examples).toEqual([]);
  });

  it("links are web addresses, mail or paths: never javascript: or data:", async () => {
    const appId = await createApp(lite);
    expect((await save(lite, appId, { ctaLink: "javascript:alert(1)" })).status).toBe(400);
    expect((await save(lite, appId, { ctaLink: "//evil.example.com" })).status).toBe(400);
    for (const ok of ["https://example.com/book", "mailto:hello@example.com", "/pricing", ""]) {
      expect((await save(lite, appId, { ctaLink: ok })).status).toBe(200);
    }
    const style = await call<Json>(styleRoute.POST, {
      path: `/api/apps/${appId}/style`,
      params: { appId },
      token: lite.token,
      body: { baseRevision: 0, appStyle: { logoUrl: "data:image/svg+xml,<svg onload=alert(1)>" } },
    });
    expect(style.status).toBe(400);
  });

  it("an admin may edit another builder's app", async () => {
    const appId = await createApp(lite);
    expect((await save(admin, appId, { header: "Fixed by support" })).status).toBe(200);
  });
});

describe("custom field rules", () => {
  const expectRule = async (res: Promise<{ status: number; json: Json }>, message: string, status = 400) => {
    const r = await res;
    expect(r.json.error?.message).toBe(message);
    expect(r.status).toBe(status);
  };

  it("'input' is reserved and names are unique whatever the case", async () => {
    const appId = await createApp(lite);
    await expectRule(save(lite, appId, { fields: [field("Input")] }), messages.reservedFieldName);
    await expectRule(save(lite, appId, { fields: [field("city"), field("City")] }), messages.fieldExists);
  });

  it("a plan's maximum of fields, with the spec's message", async () => {
    const appId = await createApp(lite);
    const six = ["a", "b", "c", "d", "e", "f"].map((n) => field(n));
    await expectRule(save(lite, appId, { fields: six }), fillTemplate(messages.maxCustomFields, { n: 5 }));
    expect((await save(lite, appId, { fields: six.slice(0, 5) })).status).toBe(200);
  });

  it("photo fields are for paid plans; place and tool_item_select for admins", async () => {
    const liteApp = await createApp(lite);
    await expectRule(
      save(lite, liteApp, { fields: [field("selfie", { type: "photo" })] }),
      messages.upgradeReasonPhotoFields,
    );
    const paidApp = await createApp(explorer);
    expect((await save(explorer, paidApp, { fields: [field("selfie", { type: "photo" })] })).status).toBe(
      200,
    );
    await expectRule(
      save(explorer, paidApp, { fields: [field("where", { type: "place" })] }),
      fillTemplate(messages.fieldTypeAdminOnly, { type: "place" }),
    );
    // Changing an existing field's type is adding that type.
    await save(lite, liteApp, { fields: [field("selfie")] });
    await expectRule(
      save(lite, liteApp, { fields: [field("selfie", { type: "photo" })] }),
      messages.upgradeReasonPhotoFields,
    );
    await save(explorer, paidApp, { fields: [field("selfie", { type: "photo" }), field("town")] });
    await expectRule(
      save(explorer, paidApp, {
        fields: [field("selfie", { type: "photo" }), field("town", { type: "place" })],
      }),
      fillTemplate(messages.fieldTypeAdminOnly, { type: "place" }),
    );
    const adminApp = await createApp(admin);
    expect((await save(admin, adminApp, { fields: [field("where", { type: "place" })] })).status).toBe(200);
  });

  it("email is always personal; memorize needs signup; filter condition needs smart items filtering", async () => {
    const appId = await createApp(lite);
    const res = await save(lite, appId, {
      fields: [field("mail", { type: "email", personal: false, memorize: true, filterCondition: "include" })],
    });
    expect(res.status).toBe(200);
    expect((res.json.app.fields as CustomField[])[0]).toMatchObject({
      personal: true,
      memorize: false,
      filterCondition: "none",
    });
  });

  it("a field cannot be deleted while its [name] tag is in the instructions", async () => {
    const appId = await createApp(lite);
    expect(
      (await save(lite, appId, { fields: [field("city")], gptPrompt: "Plan a trip to [city]" })).status,
    ).toBe(200);
    await expectRule(save(lite, appId, { fields: [] }), fillTemplate(messages.fieldInUse, { name: "city" }));
    expect((await save(lite, appId, { fields: [], gptPrompt: "Plan a trip" })).status).toBe(200);
  });

  it("options are not empty and unique; steps need fields", async () => {
    const appId = await createApp(lite);
    const options = (...labels: string[]) => labels.map((label) => ({ label, iconUrl: null }));
    await expectRule(
      save(lite, appId, { fields: [field("diet", { type: "select", options: options("Vegan", " ") })] }),
      messages.optionEmpty,
    );
    await expectRule(
      save(lite, appId, { fields: [field("diet", { type: "select", options: options("Vegan", "vegan") })] }),
      messages.optionExists,
    );
    await expectRule(save(lite, appId, { isMultiStepInput: true }), messages.stepsNeedFields);
  });
});

describe("style and settings are records of their own", () => {
  it("style saves at its revision; only admins switch the watermark", async () => {
    const appId = await createApp(explorer);
    const first = await call<Json & { revision: number }>(styleRoute.POST, {
      path: `/api/apps/${appId}/style`,
      params: { appId },
      token: explorer.token,
      body: { baseRevision: 0, appStyle: { styleName: "colorful", background: "#7BDCB5" } },
    });
    expect(first.status).toBe(200);
    expect(first.json.revision).toBe(1);
    const again = await call<Json>(styleRoute.POST, {
      path: `/api/apps/${appId}/style`,
      params: { appId },
      token: explorer.token,
      body: { baseRevision: 0, appStyle: { styleName: "dark" } },
    });
    expect(again.status).toBe(409);
    const watermark = await call<Json>(styleRoute.POST, {
      path: `/api/apps/${appId}/style`,
      params: { appId },
      token: explorer.token,
      body: { baseRevision: 1, appStyle: { hideBuildAI: false } },
    });
    expect(watermark.status).toBe(403);
    expect((await getApp(explorer, appId)).json).toMatchObject({ watermarkHidden: true });
    const byAdmin = await call<Json>(styleRoute.POST, {
      path: `/api/apps/${appId}/style`,
      params: { appId },
      token: admin.token,
      body: { baseRevision: 1, appStyle: { hideBuildAI: false } },
    });
    expect(byAdmin.status).toBe(200);
    expect((await getApp(explorer, appId)).json).toMatchObject({ watermarkHidden: false });
  });

  it("lite cannot edit settings; paid builders edit theirs but not the admin-only ones", async () => {
    const liteApp = await createApp(lite);
    const refused = await saveSettings(lite, liteApp, { dailyUserLimit: 5 });
    expect(refused.status).toBe(403);
    expect(refused.json.error?.message).toBe(messages.upgradeToEditToolSettings);

    const appId = await createApp(explorer);
    expect((await saveSettings(explorer, appId, { dailyUserLimit: 5, weeklyUserLimit: 20 })).status).toBe(
      200,
    );
    const model = await saveSettings(explorer, appId, { aiModel: "gpt-4o" });
    expect(model.status).toBe(403);
    expect((await saveSettings(admin, appId, { aiModel: "gpt-4o", creditsPerRun: 3 })).status).toBe(200);
    expect((await saveSettings(explorer, appId, { dailyUserLimit: 101 })).status).toBe(400);
    expect((await saveSettings(admin, appId, { modelTemperature: 2.1 })).status).toBe(400);
  });

  it("refuses a weekly run limit lower than the daily one, set together or one after the other", async () => {
    const appId = await createApp(explorer);
    const together = await saveSettings(explorer, appId, { dailyUserLimit: 10, weeklyUserLimit: 5 });
    expect(together.status).toBe(400);
    expect(together.json.error?.message).toBe(messages.appSettingsWeeklyBelowDaily);

    expect((await saveSettings(explorer, appId, { dailyUserLimit: 10 })).status).toBe(200);
    const weekly = await saveSettings(explorer, appId, { weeklyUserLimit: 9 });
    expect(weekly.status).toBe(400);
    expect(weekly.json.error?.message).toBe(messages.appSettingsWeeklyBelowDaily);
    expect((await saveSettings(explorer, appId, { weeklyUserLimit: 10 })).status).toBe(200);
    // Raising the daily limit over the weekly one is the same slip.
    expect((await saveSettings(explorer, appId, { dailyUserLimit: 11 })).status).toBe(400);
    // Either one unset: no conflict.
    expect((await saveSettings(explorer, appId, { weeklyUserLimit: null, dailyUserLimit: 50 })).status).toBe(
      200,
    );
    const { settings } = (await getApp(explorer, appId)).json as unknown as {
      settings: { appSettings: Record<string, unknown> };
    };
    expect(settings.appSettings).toMatchObject({
      dailyUserLimit: 50,
      weeklyUserLimit: null,
    });
  });

  it("generated-app settings are for moon and above", async () => {
    const onExplorer = await createApp(explorer, "generated");
    const res = await saveSettings(explorer, onExplorer, { dailyUserLimit: 5 });
    expect(res.status).toBe(403);
    expect(res.json.error?.message).toBe(messages.upgradeReasonGeneratedAppSettings);
    const onMoon = await createApp(moon, "generated");
    expect((await saveSettings(moon, onMoon, { dailyUserLimit: 5 })).status).toBe(200);
  });

  it("signup needs the app published and a custom domain; paid memberships need signup", async () => {
    const appId = await createApp(moon);
    const early = await saveSettings(moon, appId, {
      isSignupEnabled: true,
      customDomain: "tools.example.com",
    });
    expect(early.json.error?.message).toBe(messages.signupNeedsPublishAndDomain);
    await publish(moon, appId);
    expect((await saveSettings(moon, appId, { isSignupEnabled: true })).json.error?.message).toBe(
      messages.signupNeedsPublishAndDomain,
    );
    expect(
      (await saveSettings(moon, appId, { isSignupEnabled: true, customDomain: "tools.example.com" })).status,
    ).toBe(200);
    expect(
      (await saveSettings(moon, appId, { isSignupEnabled: false, isPaidMembershipsEnabled: true })).json.error
        ?.message,
    ).toBe(messages.paidMembershipsNeedSignup);
  });

  it("template categories are not empty and unique", async () => {
    const appId = await createApp(admin);
    expect(
      (await saveSettings(admin, appId, { templateCategories: ["Food", "food"] })).json.error?.message,
    ).toBe(messages.categoryExists);
    expect((await saveSettings(admin, appId, { templateCategories: ["Food", "Travel"] })).status).toBe(200);
  });
});

describe("tools of a generated app", () => {
  it("paths are letters, numbers and dashes, unique whatever the case", async () => {
    const appId = await createApp(moon, "generated");
    const bad = await addTool(moon, appId, "Meal planner", "meal planner");
    expect(bad.status).toBe(400);
    expect(bad.json.error?.message).toBe(messages.toolPathInvalid);
    expect((await addTool(moon, appId, "Meal planner", "meal-planner")).status).toBe(200);
    expect((await addTool(moon, appId, "Again", "Meal-Planner")).status).toBe(400);
    const single = await createApp(moon, "tool");
    expect((await addTool(moon, single, "No", "no")).status).toBe(400);
  });

  it("the plan's tools per app, with {n} in the message", async () => {
    const appId = await createApp(lite, "generated");
    for (const path of ["a", "b", "c"]) expect((await addTool(lite, appId, path, path)).status).toBe(200);
    const fourth = await addTool(lite, appId, "d", "d");
    expect(fourth.status).toBe(403);
    expect(fourth.json.error?.message).toBe(fillTemplate(messages.maxToolsPerApp, { n: 3 }));
  });

  it("activation needs a header, and parallel activations never pass the live tool limit", async () => {
    const b = await createBuilder(); // lite: 1 live tool
    const appId = await createApp(b, "generated");
    const untitled = await addTool(b, appId, "", "untitled");
    const noHeader = await patchTool(b, appId, untitled.json.toolId, untitled.json.revision, {
      status: "active",
    });
    expect(noHeader.json.error?.message).toBe(messages.toolNeedsHeader);

    const made = [await addTool(b, appId, "One", "one"), await addTool(b, appId, "Two", "two")];
    const answers = await Promise.all(
      made.map((t) => patchTool(b, appId, t.json.toolId, t.json.revision, { status: "active" })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    expect(answers.find((a) => a.status === 403)?.json.error?.message).toBe(
      fillTemplate(messages.liveToolLimit, { n: 1 }),
    );
    const [row] = await db().select({ n: count() }).from(tools).where(eq(tools.status, "active"));
    expect(row?.n).toBeGreaterThanOrEqual(1);
  });

  it("a stale tool save is refused (409) with the current tool; reorder takes every tool once", async () => {
    const appId = await createApp(moon, "generated");
    const one = await addTool(moon, appId, "One", "one");
    const two = await addTool(moon, appId, "Two", "two");
    expect((await patchTool(moon, appId, one.json.toolId, one.json.revision, { title: "Uno" })).status).toBe(
      200,
    );
    const stale = await patchTool(moon, appId, one.json.toolId, one.json.revision, { title: "Eins" });
    expect(stale.status).toBe(409);
    expect((stale.json.current as { title: string }).title).toBe("Uno");
    const order = await call<{ tools: { toolId: string }[] }>(orderRoute.PUT, {
      method: "PUT",
      path: `/api/apps/${appId}/tools/order`,
      params: { appId },
      token: moon.token,
      body: { toolIds: [two.json.toolId, one.json.toolId] },
    });
    expect(order.json.tools.map((t) => t.toolId)).toEqual([two.json.toolId, one.json.toolId]);
    const del = await call<Json>(toolRoute.DELETE, {
      method: "DELETE",
      path: `/api/apps/${appId}/tools/${two.json.toolId}`,
      params: { appId, toolId: two.json.toolId },
      token: stranger.token,
    });
    expect(del.status).toBe(404);
  });
});

describe("claiming an app", () => {
  const invitation = (b: Builder, appId: string) =>
    call<Json & { inviteLink: string; claimCode: string }>(claimInvitationRoute.GET, {
      method: "GET",
      path: `/api/apps/${appId}/settings/claimInvitation`,
      params: { appId },
      token: b.token,
    });
  const claim = (b: Builder, claimCode: string) =>
    call<Json & { appId: string }>(claimRoute.POST, {
      path: "/api/apps/claim",
      token: b.token,
      body: { claimCode },
    });

  it("needs the app published; the same link until used; it works once, for one of two racing builders", async () => {
    const appId = await createApp(admin);
    await saveSettings(admin, appId, { isClaimable: true });
    const early = await invitation(admin, appId);
    expect(early.status).toBe(400);
    expect(early.json.error?.message).toBe(messages.inviteNotPublished);
    await publish(admin, appId);
    const invite = await invitation(admin, appId);
    expect(invite.status).toBe(200);
    expect(invite.json.inviteLink).toContain(`/claim/${encodeURIComponent(invite.json.claimCode)}`);
    expect((await invitation(admin, appId)).json.claimCode).toBe(invite.json.claimCode);

    expect((await claim(admin, invite.json.claimCode)).json.error?.message).toBe(messages.claimOwnApp);
    const racers = [await createBuilder(), await createBuilder()];
    const answers = await Promise.all(racers.map((r) => claim(r, invite.json.claimCode)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = racers[answers.findIndex((a) => a.status === 200)]!;
    const [row] = await db().select().from(apps).where(eq(apps.id, appId));
    expect(row?.ownerAccountId).toBe(winner.account.accountId);
    expect((await claim(stranger, invite.json.claimCode)).json.error?.message).toBe(messages.claimInvalid);
  });

  it("refuses a forged code", async () => {
    const appId = await createApp(admin);
    await saveSettings(admin, appId, { isClaimable: true });
    await publish(admin, appId);
    const { claimCode } = (await invitation(admin, appId)).json;
    const forged = `${claimCode.split(".")[0]}.${"A".repeat(43)}`;
    expect((await claim(stranger, forged)).json.error?.message).toBe(messages.claimInvalid);
  });
});

describe("deleting an app", () => {
  it("removes its tools, settings and style with it; strangers get 404", async () => {
    const appId = await createApp(moon, "generated");
    await addTool(moon, appId, "One", "one");
    await saveSettings(moon, appId, { dailyUserLimit: 3 });
    await call(styleRoute.POST, {
      path: `/api/apps/${appId}/style`,
      params: { appId },
      token: moon.token,
      body: { baseRevision: 0, appStyle: { styleName: "dark" } },
    });
    const del = (b: Builder) =>
      call<Json>(appRoute.DELETE, {
        method: "DELETE",
        path: `/api/apps/${appId}`,
        params: { appId },
        token: b.token,
      });
    expect((await del(stranger)).status).toBe(404);
    expect((await del(moon)).status).toBe(200);
    for (const table of [tools, appSettings, appStyles]) {
      const [row] = await db().select({ n: count() }).from(table).where(eq(table.appId, appId));
      expect(row?.n).toBe(0);
    }
    expect((await getApp(moon, appId)).status).toBe(404);
  });
});

describe("instructions", () => {
  it("blocks are built from the instructions while none are saved", async () => {
    const appId = await createApp(lite);
    const res = await save(lite, appId, { gptPrompt: "Plan a trip" });
    expect(res.json.app.blocks).toEqual([{ type: "instructions", text: "Plan a trip" }]);
  });
});
