import { checkCategoryName, type RuleError } from "@/lib/apps/field-rules";
import { safeHref, safeImageSrc } from "@/lib/apps/safe-link";
import { AppSettings, type AppType } from "@/lib/apps/schemas";
import {
  CREDITS_PER_RUN_MAX,
  CREDITS_PER_RUN_MIN,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
  USER_RUN_LIMIT_MAX,
  USER_RUN_LIMIT_MIN,
} from "@/lib/constants";
import type { MessageKey } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import type { UpgradeReason } from "@/lib/plans/upgrade-reasons";

// Pure rules of the settings panel (no React), shared by the panel and its unit tests. Each
// parse* takes what the builder typed and answers the value to save, or the message to show.

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: MessageKey };

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(?:[.,]\d*)?$|^[.,]\d+$/;

/** A daily or weekly run limit per user: 1 to 100, empty for no limit. */
export function parseUserLimit(text: string): Parsed<number | null> {
  const t = text.trim();
  if (t === "") return { ok: true, value: null };
  const n = Number(t);
  if (!WHOLE.test(t) || n < USER_RUN_LIMIT_MIN || n > USER_RUN_LIMIT_MAX) {
    return { ok: false, error: "appSettingsLimitInvalid" };
  }
  return { ok: true, value: n };
}

/** Credits per run: a whole number 0 to 20. */
export function parseCredits(text: string): Parsed<number> {
  const t = text.trim();
  const n = Number(t);
  if (!WHOLE.test(t) || n < CREDITS_PER_RUN_MIN || n > CREDITS_PER_RUN_MAX) {
    return { ok: false, error: "appSettingsCreditsInvalid" };
  }
  return { ok: true, value: n };
}

/** A temperature rounded to the 0.1 step the setting takes (0.30000000000000004 becomes 0.3). */
export function roundTemperature(n: number): number {
  return Math.min(TEMPERATURE_MAX, Math.max(TEMPERATURE_MIN, Math.round(n * 10) / 10));
}

/** Model temperature: 0 to 2 in steps of 0.1; a decimal comma is accepted. */
export function parseTemperature(text: string): Parsed<number> {
  const t = text.trim();
  const n = Number(t.replace(",", "."));
  if (!DECIMAL.test(t) || !Number.isFinite(n) || n < TEMPERATURE_MIN || n > TEMPERATURE_MAX) {
    return { ok: false, error: "appSettingsTemperatureInvalid" };
  }
  return { ok: true, value: roundTemperature(n) };
}

/**
 * A terms or privacy link, as the settings schema takes it: a full URL, a /path, or empty. The
 * schema takes any URL scheme, but the public page links only web addresses, mail and paths of
 * the site (safeHref): anything else would be saved and then silently dropped.
 */
export function parseLink(text: string): Parsed<string> {
  const t = text.trim();
  const parsed = AppSettings.shape.termsOfServiceLink.safeParse(t);
  return parsed.success && (t === "" || safeHref(t) !== null)
    ? { ok: true, value: t }
    : { ok: false, error: "appSettingsUrlInvalid" };
}

/** The template image: a URL or /path the page can show as an image; empty means none (null). */
export function parseImageUrl(text: string): Parsed<string | null> {
  const t = text.trim();
  if (t === "") return { ok: true, value: null };
  const link = parseLink(t);
  return link.ok && safeImageSrc(t) !== null ? link : { ok: false, error: "appSettingsUrlInvalid" };
}

/** The support email: an address or empty. */
export function parseSupportEmail(text: string): Parsed<string> {
  const t = text.trim();
  const parsed = AppSettings.shape.supportEmail.safeParse(t);
  return parsed.success ? { ok: true, value: t } : { ok: false, error: "appSettingsEmailInvalid" };
}

/**
 * Why sign-up cannot be switched on, or null: "Signup can be enabled only after the app is
 * published and a custom domain is set". Switching it off is always allowed.
 */
export function signupBlocked(
  status: "active" | "draft",
  settings: Pick<AppSettings, "isSignupEnabled" | "customDomain">,
): MessageKey | null {
  if (settings.isSignupEnabled) return null;
  return status === "active" && settings.customDomain.trim() !== "" ? null : "signupNeedsPublishAndDomain";
}

/** "Paid memberships need signup enabled"; switching them off is always allowed. */
export function paidMembershipsBlocked(
  settings: Pick<AppSettings, "isSignupEnabled" | "isPaidMembershipsEnabled">,
): MessageKey | null {
  if (settings.isPaidMembershipsEnabled || settings.isSignupEnabled) return null;
  return "paidMembershipsNeedSignup";
}

/**
 * The patch of switching sign-up: switching it off also switches paid memberships off, which
 * need it (the server refuses paid memberships without sign-up).
 */
export function signupPatch(enabled: boolean, settings: Pick<AppSettings, "isPaidMembershipsEnabled">) {
  const patch: Partial<AppSettings> = { isSignupEnabled: enabled };
  if (!enabled && settings.isPaidMembershipsEnabled) patch.isPaidMembershipsEnabled = false;
  return patch;
}

/**
 * Whether the panel shows its form, or the upgrade prompt with the reason to open the upgrade
 * dialog with. Admins always edit; lite sees 'Upgrade your plan to edit tool settings'
 * (lite builders may not edit them); a generated app's settings need moon and above.
 */
export function settingsAccess(
  ownerPlan: string,
  appType: AppType,
  isAdmin: boolean,
): { edit: true } | { edit: false; reason: UpgradeReason; message: MessageKey } {
  if (isAdmin) return { edit: true };
  const caps = getPlanCapabilities(ownerPlan);
  if (!caps.editToolSettings)
    return { edit: false, reason: "toolSettings", message: "upgradeToEditToolSettings" };
  if (appType === "generated" && !caps.generatedAppSettings) {
    return { edit: false, reason: "generatedAppSettings", message: "upgradeReasonGeneratedAppSettings" };
  }
  return { edit: true };
}

/**
 * Adds a template category: not empty ('Category name cannot be empty'), not already there
 * ('Category already exists', case-insensitively), within the length cap. The new category is
 * also picked for this app.
 */
export function addTemplateCategory(
  name: string,
  categories: readonly string[],
):
  | { ok: true; patch: Pick<AppSettings, "templateCategories" | "templateCategory"> }
  | { ok: false; error: RuleError } {
  const broken = checkCategoryName(name, categories);
  if (broken) return { ok: false, error: broken };
  const category = name.trim();
  return { ok: true, patch: { templateCategories: [...categories, category], templateCategory: category } };
}

export type ModelChoice = { id: string; label: string };

/**
 * The entries of the model dropdown: the listed models, plus the app's current model when the
 * list does not have it (a model the provider dropped, or no list at all because GET
 * /api/models failed), so the current value always shows.
 */
export function modelChoices(listed: readonly ModelChoice[] | null, current: string | null): ModelChoice[] {
  const models = [...(listed ?? [])];
  if (current && !models.some((m) => m.id === current)) models.unshift({ id: current, label: current });
  return models;
}

/**
 * Whether the panel shows the tool settings (model, temperature, query method, run
 * limits, credits, template library entry ...) for an app kind. They are about tool runs; a
 * space app is a chat-style app with its own backend functions and has no tools.
 */
export function hasToolSettings(appType: AppType): boolean {
  return appType !== "space";
}

/** The editor's URL without its panel (the editor opens its main panel then). */
export function withoutPanel(href: string): string {
  const url = new URL(href, "http://localhost");
  url.searchParams.delete("panel");
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The toast of a failed invitation request: the server's message for a 400 (not published, not
 * claimable), otherwise 'Failed to get invitation, try again later'.
 */
export function inviteFailureMessage(status: number, serverMessage: string): MessageKey | { text: string } {
  return status === 400 && serverMessage ? { text: serverMessage } : "inviteFailed";
}
