import "server-only";
import { findAppById, updateAppContentAt } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { ownerPlan } from "@/lib/plans/owner-plan";
import { appView, loadSettings } from "./editor-app";
import { checkContent, type FieldRuleContext, normalizeField, type RuleError } from "./field-rules";
import { type AppAnswer, AppContent, type AppContentPatch, type SaveAppBody } from "./schemas";

/** The rule context of an app being edited by this caller. */
export async function fieldRuleContext(session: Session, app: App): Promise<FieldRuleContext> {
  const [{ caps }, { appSettings }] = await Promise.all([
    ownerPlan(app.ownerAccountId),
    loadSettings(app.id),
  ]);
  return {
    isAdmin: session.account?.isAdmin ?? false,
    maxCustomFields: caps.maxCustomFields,
    photoFields: caps.photoFields,
    isSignupEnabled: appSettings.isSignupEnabled,
    aiQueryMethod: appSettings.aiQueryMethod,
  };
}

export const ruleFailure = (error: RuleError) =>
  new AppError("BAD_REQUEST", error.vars ? { key: error.key, vars: error.vars } : error.key, "RULE");

const FIELD_RULE_KEYS = ["fields", "gptPrompt", "isMultiStepInput", "inputSteps"] as const;
const touchesFieldRules = (patch: AppContentPatch) => FIELD_RULE_KEYS.some((key) => key in patch);

/** Merges a partial save into content, checks every field rule, and fills the derived values. */
export function applyContentPatch(
  current: AppContent,
  patch: AppContentPatch,
  ctx: FieldRuleContext,
): AppContent {
  const next = AppContent.parse({ ...current, ...patch });
  const broken = checkContent(next, current, ctx);
  if (broken) throw ruleFailure(broken);
  return { ...next, fields: next.fields.map((f) => normalizeField(f, ctx)) };
}

/**
 * PATCH /api/apps/{appId}: a partial save based on a revision. When somebody saved in between
 * (another tab, another admin), nothing is written and the answer (409) carries the current
 * version, so the editor can show both and let the builder choose.
 */
export async function saveApp(session: Session, app: App, body: SaveAppBody): Promise<AppAnswer> {
  if (body.baseRevision !== app.revision) throw conflict(app);
  const current = AppContent.parse(app.content);
  // Most saves are texts: the field rules (and the plan and settings they read) only matter
  // when fields, steps or the instructions that tag them change.
  const content = touchesFieldRules(body.app)
    ? applyContentPatch(current, body.app, await fieldRuleContext(session, app))
    : AppContent.parse({ ...current, ...body.app });
  const saved = await updateAppContentAt(app.id, body.baseRevision, { content, header: content.header });
  if (!saved) throw conflict((await findAppById(app.id)) ?? app);
  return appView(saved);
}

function conflict(app: App) {
  // The app as it is now: re-read by the caller's next GET if this copy is already stale.
  return new AppError("CONFLICT", "saveConflict", "REVISION_CONFLICT", { current: appView(app) });
}
