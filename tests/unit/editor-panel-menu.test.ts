import { describe, expect, it } from "vitest";
import { type MenuContext, panelMenu, resolvePanel } from "@/components/editor/panel-menu";
import { messages } from "@/lib/messages";

const appId = "0b0c6c55-5d5e-4c2c-9f4c-0f6b7c1d2e3f";
const labels = (ctx: MenuContext) => panelMenu(ctx).map((e) => e.label);
const settingsOf = (ctx: MenuContext) =>
  panelMenu(ctx).find((e) => e.type === "panel" && e.panel === "settings");

describe("panel menu by app kind", () => {
  it("single-tool app", () => {
    expect(labels({ appType: "tool", appId, isAdmin: false, ownerPlan: "moon" })).toEqual([
      "Tool texts",
      "App branding",
      "Custom fields",
      "Results layout",
      "Call to action",
      "Data sources",
      "Tool settings",
    ]);
  });

  it("generated app: settings for admins and moon and above, chat for admins only", () => {
    expect(labels({ appType: "generated", appId, isAdmin: false, ownerPlan: "lite" })).toEqual([
      "App texts",
      "App branding",
      "App tools",
    ]);
    expect(labels({ appType: "generated", appId, isAdmin: false, ownerPlan: "monetizer" })).toEqual([
      "App texts",
      "App branding",
      "App tools",
    ]);
    expect(labels({ appType: "generated", appId, isAdmin: false, ownerPlan: "moon" })).toEqual([
      "App texts",
      "App branding",
      "App tools",
      "App settings",
    ]);
    expect(labels({ appType: "generated", appId, isAdmin: true, ownerPlan: "lite" })).toEqual([
      "App texts",
      "App branding",
      "App tools",
      "App settings",
      "App chat",
    ]);
    const tools = panelMenu({ appType: "generated", appId, isAdmin: false, ownerPlan: "lite" })[2];
    expect(tools).toEqual({ type: "link", label: "App tools", href: `/build/app/${appId}/tools` });
  });

  it("space app", () => {
    expect(labels({ appType: "space", appId, isAdmin: false, ownerPlan: "explorer" })).toEqual([
      "App details",
      "Database",
      "Code",
      "Functions",
      "App settings",
    ]);
  });

  it("chat mode has only a Data sources entry", () => {
    expect(labels({ appType: "tool", appId, isAdmin: true, ownerPlan: "moon", chatMode: true })).toEqual([
      "Data sources",
    ]);
  });

  it("settings are disabled on lite (with the upgrade) and without an app id", () => {
    expect(settingsOf({ appType: "tool", appId, isAdmin: false, ownerPlan: "lite" })).toMatchObject({
      disabledReason: "upgradeToEditToolSettings",
      upgrade: true,
    });
    expect(messages.upgradeToEditToolSettings).toBe("Upgrade your plan to edit tool settings");
    expect(settingsOf({ appType: "space", appId, isAdmin: false, ownerPlan: "lite" })).toMatchObject({
      disabledReason: "upgradeToEditToolSettings",
    });
    expect(
      settingsOf({ appType: "tool", appId: undefined, isAdmin: false, ownerPlan: "moon" }),
    ).toMatchObject({
      disabledReason: "editorNoAppId",
      upgrade: false,
    });
    expect(settingsOf({ appType: "tool", appId, isAdmin: false, ownerPlan: "explorer" })).toMatchObject({
      disabledReason: null,
    });
    // Admins may edit any app's settings (the server lets them).
    expect(settingsOf({ appType: "tool", appId, isAdmin: true, ownerPlan: "lite" })).toMatchObject({
      disabledReason: null,
    });
  });
});

describe("resolvePanel", () => {
  const tool = panelMenu({ appType: "tool", appId, isAdmin: false, ownerPlan: "lite" });
  it("opens a panel of the menu by its URL name", () => {
    expect(resolvePanel(tool, "texts")).toBe("texts");
    expect(resolvePanel(tool, "call-to-action")).toBe("call-to-action");
  });
  it("falls back to the menu for unknown, foreign or disabled panels", () => {
    expect(resolvePanel(tool, null)).toBe("main");
    expect(resolvePanel(tool, "nope")).toBe("main");
    expect(resolvePanel(tool, "database")).toBe("main");
    expect(resolvePanel(tool, "settings")).toBe("main");
  });
});
