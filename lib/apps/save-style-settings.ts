import "server-only";
import { touchApp, writeAppSettingsAt, writeAppStyleAt } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { ownerPlan } from "@/lib/plans/owner-plan";
import { loadSettings, loadStyle } from "./editor-app";
import { checkCategoryName } from "./field-rules";
import { weeklyBelowDaily } from "./run-limits";
import { ruleFailure } from "./save-app";
import { AppSettings, AppStyle, type SettingsAnswer, type StyleAnswer } from "./schemas";
import { ADMIN_ONLY_SETTING_LABELS, isAdminOnlySetting } from "./setting-roles";

// Style and settings are "saved as separate records", each at the revision the
// editor last saw; a save based on an older one is refused (409) with the current record.
// Which settings only admins may change: ADMIN_ONLY_SETTINGS (setting-roles.ts, shared with the panel).

const isAdmin = (session: Session) => session.account?.isAdmin ?? false;
const changed = <T extends object>(before: T, patch: Partial<T>) =>
  (Object.keys(patch) as (keyof T)[]).filter((k) => JSON.stringify(patch[k]) !== JSON.stringify(before[k]));

/** POST /api/apps/{appId}/style */
export async function saveStyle(
  session: Session,
  app: App,
  body: { baseRevision: number; appStyle: Partial<AppStyle> },
): Promise<StyleAnswer> {
  const current = await loadStyle(app.id);
  if (current.revision !== body.baseRevision) throw conflict("saveConflict", { style: current });
  if (!isAdmin(session) && changed(current.appStyle, body.appStyle).includes("hideBuildAI")) {
    throw new AppError(
      "FORBIDDEN",
      { key: "adminOnlySetting", vars: { setting: messages[ADMIN_ONLY_SETTING_LABELS.hideBuildAI] } },
      "ADMIN_ONLY",
    );
  }
  const appStyle = AppStyle.parse({ ...current.appStyle, ...body.appStyle });
  const saved = await writeAppStyleAt(app.id, body.baseRevision, appStyle);
  if (!saved) throw conflict("saveConflict", { style: await loadStyle(app.id) });
  await touchApp(app.id);
  return { revision: saved.revision, appStyle };
}

/** POST /api/apps/{appId}/settings */
export async function saveSettings(
  session: Session,
  app: App,
  body: { baseRevision: number; appSettings: Partial<AppSettings> },
): Promise<SettingsAnswer> {
  await assertMaySaveSettings(session, app);
  const current = await loadSettings(app.id);
  if (current.revision !== body.baseRevision) throw conflict("saveConflict", { settings: current });
  const edits = changed(current.appSettings, body.appSettings);
  const adminOnly = edits.find(isAdminOnlySetting);
  if (adminOnly && !isAdmin(session)) {
    throw new AppError(
      "FORBIDDEN",
      { key: "adminOnlySetting", vars: { setting: messages[ADMIN_ONLY_SETTING_LABELS[adminOnly]] } },
      "ADMIN_ONLY",
    );
  }
  const appSettings = AppSettings.parse({ ...current.appSettings, ...body.appSettings });
  checkSettings(app, appSettings, edits);
  const saved = await writeAppSettingsAt(app.id, body.baseRevision, appSettings);
  if (!saved) throw conflict("saveConflict", { settings: await loadSettings(app.id) });
  await touchApp(app.id);
  return { revision: saved.revision, appSettings };
}

/**
 * "Settings panel is disabled when the plan is lite" (lite sees 'Upgrade your plan to edit tool
 * settings'); a generated app's settings are for "admins, paid tier moon and above, and space apps".
 */
export async function assertMaySaveSettings(session: Session, app: App) {
  if (isAdmin(session)) return;
  const { caps } = await ownerPlan(app.ownerAccountId);
  if (!caps.editToolSettings) throw new AppError("FORBIDDEN", "upgradeToEditToolSettings", "PLAN_LIMIT");
  if (app.type === "generated" && !caps.generatedAppSettings) {
    throw new AppError("FORBIDDEN", "upgradeReasonGeneratedAppSettings", "PLAN_LIMIT");
  }
}

function checkSettings(app: App, s: AppSettings, edits: (keyof AppSettings)[]) {
  // "Signup can be enabled only after the app is published and a custom domain is set."
  if (
    edits.includes("isSignupEnabled") &&
    s.isSignupEnabled &&
    (app.status !== "active" || !s.customDomain.trim())
  ) {
    throw new AppError("BAD_REQUEST", "signupNeedsPublishAndDomain", "RULE");
  }
  if ((edits.includes("dailyUserLimit") || edits.includes("weeklyUserLimit")) && weeklyBelowDaily(s)) {
    throw new AppError("BAD_REQUEST", "appSettingsWeeklyBelowDaily", "RULE");
  }
  // "Paid memberships need signup enabled."
  if (s.isPaidMembershipsEnabled && !s.isSignupEnabled) {
    throw new AppError("BAD_REQUEST", "paidMembershipsNeedSignup", "RULE");
  }
  const seen: string[] = [];
  for (const category of s.templateCategories) {
    const broken = checkCategoryName(category, seen);
    if (broken) throw ruleFailure(broken);
    seen.push(category);
  }
}

function conflict(key: "saveConflict", current: Record<string, unknown>) {
  return new AppError("CONFLICT", key, "REVISION_CONFLICT", { current });
}
