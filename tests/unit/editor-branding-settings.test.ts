import { describe, expect, it } from "vitest";
import { normalizeHex, presetPatch, watermarkState } from "@/components/editor/branding/branding-rules";
import {
  addTemplateCategory,
  hasToolSettings,
  inviteFailureMessage,
  modelChoices,
  paidMembershipsBlocked,
  parseCredits,
  parseImageUrl,
  parseLink,
  parseSupportEmail,
  parseTemperature,
  parseUserLimit,
  roundTemperature,
  settingsAccess,
  signupBlocked,
  signupPatch,
  withoutPanel,
} from "@/components/editor/settings/settings-rules";
import { AppSettings } from "@/lib/apps/schemas";
import { ADMIN_ONLY_SETTINGS, canChangeSetting, isAdminOnlySetting } from "@/lib/apps/setting-roles";
import { TEMPLATE_CATEGORY_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";

describe("branding rules", () => {
  it("normalizes a #RRGGBB colour and refuses anything else", () => {
    expect(normalizeHex("#7bdcb5")).toBe("#7BDCB5");
    expect(normalizeHex(" 7BDCB5 ")).toBe("#7BDCB5");
    expect(normalizeHex("#fff")).toBeNull();
    expect(normalizeHex("#7BDCB")).toBeNull();
    expect(normalizeHex("#7BDCB55")).toBeNull();
    expect(normalizeHex("#GGGGGG")).toBeNull();
    expect(normalizeHex("")).toBeNull();
  });

  it("sets the preset's colours and leaves images and the watermark alone", () => {
    const colorful = presetPatch("colorful");
    expect(colorful).toMatchObject({
      styleName: "colorful",
      background: "#7BDCB5",
      headerTextColor: "#000000",
    });
    expect(presetPatch("dark")).toMatchObject({ background: "#000000", headerTextColor: "#FFFFFF" });
    expect(presetPatch("light")).toMatchObject({ background: "#FFFFFF", headerTextColor: "#000000" });
    for (const patch of [colorful, presetPatch("dark"), presetPatch("light")]) {
      expect(Object.keys(patch)).not.toContain("logoUrl");
      expect(Object.keys(patch)).not.toContain("backgroundImage");
      expect(Object.keys(patch)).not.toContain("hideBuildAI");
    }
  });

  it("applies the plan default to an unset watermark switch", () => {
    expect(watermarkState(null, true)).toEqual({ hidden: true, followsPlan: true });
    expect(watermarkState(null, false)).toEqual({ hidden: false, followsPlan: true });
    expect(watermarkState(false, true)).toEqual({ hidden: false, followsPlan: false });
    expect(watermarkState(true, false)).toEqual({ hidden: true, followsPlan: false });
  });
});

describe("settings parsing", () => {
  it("takes run limits 1 to 100, empty meaning no limit", () => {
    expect(parseUserLimit("")).toEqual({ ok: true, value: null });
    expect(parseUserLimit("  ")).toEqual({ ok: true, value: null });
    expect(parseUserLimit("1")).toEqual({ ok: true, value: 1 });
    expect(parseUserLimit(" 100 ")).toEqual({ ok: true, value: 100 });
    for (const bad of ["0", "101", "2.5", "-3", "abc", "1e2"]) {
      expect(parseUserLimit(bad)).toEqual({ ok: false, error: "appSettingsLimitInvalid" });
    }
  });

  it("takes credits per run 0 to 20", () => {
    expect(parseCredits("0")).toEqual({ ok: true, value: 0 });
    expect(parseCredits("20")).toEqual({ ok: true, value: 20 });
    for (const bad of ["", "21", "1.5", "-1", "x"]) {
      expect(parseCredits(bad)).toEqual({ ok: false, error: "appSettingsCreditsInvalid" });
    }
  });

  it("takes a temperature 0 to 2 in steps of 0.1 that the settings schema accepts", () => {
    expect(parseTemperature("0.7")).toEqual({ ok: true, value: 0.7 });
    expect(parseTemperature("1,3")).toEqual({ ok: true, value: 1.3 });
    expect(parseTemperature("2")).toEqual({ ok: true, value: 2 });
    expect(parseTemperature(".5")).toEqual({ ok: true, value: 0.5 });
    expect(parseTemperature("0.25")).toEqual({ ok: true, value: 0.3 });
    for (const bad of ["", "2.1", "-0.1", "abc", "1.2.3"]) {
      expect(parseTemperature(bad)).toEqual({ ok: false, error: "appSettingsTemperatureInvalid" });
    }
    expect(roundTemperature(0.1 + 0.2)).toBe(0.3);
    expect(roundTemperature(5)).toBe(2);
    for (let i = 0; i <= 20; i++) {
      const t = roundTemperature(i * 0.1);
      expect(AppSettings.shape.modelTemperature.safeParse(t).success, String(t)).toBe(true);
    }
  });

  it("takes links, the template image and the support email as the schema does", () => {
    expect(parseLink("https://example.com/terms")).toEqual({ ok: true, value: "https://example.com/terms" });
    expect(parseLink("/terms")).toEqual({ ok: true, value: "/terms" });
    expect(parseLink("")).toEqual({ ok: true, value: "" });
    expect(parseLink("example dot com")).toEqual({ ok: false, error: "appSettingsUrlInvalid" });
    expect(parseLink("mailto:legal@example.com")).toEqual({ ok: true, value: "mailto:legal@example.com" });
    // Links the public page would drop are refused where they are typed.
    for (const link of [
      "javascript:alert(1)",
      "data:text/html,x",
      "ftp://example.com/terms",
      "//example.com",
    ])
      expect(parseLink(link)).toEqual({ ok: false, error: "appSettingsUrlInvalid" });
    expect(parseImageUrl("mailto:a@example.com")).toEqual({ ok: false, error: "appSettingsUrlInvalid" });
    expect(parseImageUrl("javascript:alert(1)")).toEqual({ ok: false, error: "appSettingsUrlInvalid" });
    expect(parseImageUrl("")).toEqual({ ok: true, value: null });
    expect(parseImageUrl("https://example.com/a.png")).toEqual({
      ok: true,
      value: "https://example.com/a.png",
    });
    expect(parseImageUrl("nope")).toEqual({ ok: false, error: "appSettingsUrlInvalid" });
    expect(parseSupportEmail("help@example.com")).toEqual({ ok: true, value: "help@example.com" });
    expect(parseSupportEmail("")).toEqual({ ok: true, value: "" });
    expect(parseSupportEmail("help@")).toEqual({ ok: false, error: "appSettingsEmailInvalid" });
  });
});

describe("settings rules", () => {
  const off = { isSignupEnabled: false, isPaidMembershipsEnabled: false, customDomain: "" };

  it("allows sign-up only when published with a custom domain, and switching it off always", () => {
    expect(messages[signupBlocked("draft", { ...off, customDomain: "a.example.com" })!]).toBe(
      "Signup can be enabled only after the app is published and a custom domain is set",
    );
    expect(signupBlocked("active", { ...off, customDomain: "  " })).toBe("signupNeedsPublishAndDomain");
    expect(signupBlocked("active", { ...off, customDomain: "a.example.com" })).toBeNull();
    expect(signupBlocked("draft", { ...off, isSignupEnabled: true })).toBeNull();
  });

  it("needs sign-up for paid memberships, and switches them off with sign-up", () => {
    expect(messages[paidMembershipsBlocked(off)!]).toBe("Paid memberships need signup enabled");
    expect(paidMembershipsBlocked({ ...off, isSignupEnabled: true })).toBeNull();
    expect(paidMembershipsBlocked({ ...off, isPaidMembershipsEnabled: true })).toBeNull();
    expect(signupPatch(false, { isPaidMembershipsEnabled: true })).toEqual({
      isSignupEnabled: false,
      isPaidMembershipsEnabled: false,
    });
    expect(signupPatch(false, { isPaidMembershipsEnabled: false })).toEqual({ isSignupEnabled: false });
    expect(signupPatch(true, { isPaidMembershipsEnabled: false })).toEqual({ isSignupEnabled: true });
  });

  it("shows lite the upgrade prompt, and generated apps below moon theirs; admins always edit", () => {
    const lite = settingsAccess("lite", "tool", false);
    expect(lite).toEqual({ edit: false, reason: "toolSettings", message: "upgradeToEditToolSettings" });
    if (!lite.edit) expect(messages[lite.message]).toBe("Upgrade your plan to edit tool settings");
    expect(settingsAccess("lite", "tool", true)).toEqual({ edit: true });
    expect(settingsAccess("explorer", "tool", false)).toEqual({ edit: true });
    expect(settingsAccess("explorer", "generated", false)).toMatchObject({
      edit: false,
      reason: "generatedAppSettings",
    });
    expect(settingsAccess("moon", "generated", false)).toEqual({ edit: true });
    expect(settingsAccess("explorer", "space", false)).toEqual({ edit: true });
  });

  it("adds a template category with the spec's two messages", () => {
    const empty = addTemplateCategory("  ", []);
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(messages[empty.error.key]).toBe("Category name cannot be empty");
    const dup = addTemplateCategory("travel", ["Travel"]);
    expect(dup.ok).toBe(false);
    if (!dup.ok) expect(messages[dup.error.key]).toBe("Category already exists");
    expect(addTemplateCategory("x".repeat(TEMPLATE_CATEGORY_MAX + 1), []).ok).toBe(false);
    expect(addTemplateCategory(" Food ", ["Travel"])).toEqual({
      ok: true,
      patch: { templateCategories: ["Travel", "Food"], templateCategory: "Food" },
    });
  });

  it("lists the current model even when the model list lacks it or failed", () => {
    const listed = [{ id: "gpt-4o-mini", label: "GPT-4o mini" }];
    expect(modelChoices(listed, null)).toEqual(listed);
    expect(modelChoices(listed, "gpt-4o-mini")).toEqual(listed);
    expect(modelChoices(listed, "old-model")).toEqual([{ id: "old-model", label: "old-model" }, ...listed]);
    expect(modelChoices(null, "old-model")).toEqual([{ id: "old-model", label: "old-model" }]);
    expect(modelChoices(null, null)).toEqual([]);
  });

  it("shows tool settings for tool and generated apps, not space apps", () => {
    expect(hasToolSettings("tool")).toBe(true);
    expect(hasToolSettings("generated")).toBe(true);
    expect(hasToolSettings("space")).toBe(false);
  });

  it("drops the panel from the editor URL and keeps the rest", () => {
    expect(withoutPanel("http://localhost:3000/build/app/a?panel=settings")).toBe("/build/app/a");
    expect(withoutPanel("http://x/build/app/a?x=1&panel=settings#top")).toBe("/build/app/a?x=1#top");
    expect(withoutPanel("/build/app/a")).toBe("/build/app/a");
  });

  it("shows the server's message for a 400 invitation answer, the spec's otherwise", () => {
    expect(inviteFailureMessage(400, "You can't copy invite link until you publish your app")).toEqual({
      text: "You can't copy invite link until you publish your app",
    });
    expect(inviteFailureMessage(500, "boom")).toBe("inviteFailed");
    expect(inviteFailureMessage(0, "")).toBe("inviteFailed");
    expect(messages.inviteFailed).toBe("Failed to get invitation, try again later");
  });
});

describe("admin-only settings", () => {
  it("are the tool and app settings reserved to admins, and only admins change them", () => {
    for (const key of [
      "aiModel",
      "modelTemperature",
      "aiQueryMethod",
      "isClaimable",
      "creditsPerRun",
    ] as const) {
      expect(isAdminOnlySetting(key)).toBe(true);
      expect(canChangeSetting(key, false)).toBe(false);
      expect(canChangeSetting(key, true)).toBe(true);
    }
    for (const key of [
      "dailyUserLimit",
      "weeklyUserLimit",
      "isSignupEnabled",
      "supportEmail",
      "mainPage",
    ] as const) {
      expect(isAdminOnlySetting(key)).toBe(false);
      expect(canChangeSetting(key, false)).toBe(true);
    }
    for (const key of ADMIN_ONLY_SETTINGS) expect(Object.keys(AppSettings.shape)).toContain(key);
  });
});
