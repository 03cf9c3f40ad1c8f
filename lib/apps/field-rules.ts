import { RESERVED_FIELD_NAME, STEP_ID_LENGTH, TEMPLATE_CATEGORY_MAX } from "@/lib/constants";
import type { MessageKey } from "@/lib/messages";
import type { AppContent, AppSettings, CustomField, FieldOption, FieldType } from "./schemas";
import { FIELD_TYPES, TOOL_PATH } from "./schemas";

// The rules of input fields, options, steps, tool paths and template categories, as the
// spec words them. Pure functions, used by the editor for its inline messages and by the save
// services, which refuse what the editor would not have let through.

/** A broken rule: the catalogue message and its placeholders. */
export type RuleError = { key: MessageKey; vars?: Record<string, string | number> };

/** Who edits and under what plan: what the rules depend on. */
export type FieldRuleContext = {
  isAdmin: boolean;
  /** The plan's "Max custom fields". */
  maxCustomFields: number;
  /** "Photo is for paid plans only." */
  photoFields: boolean;
  /** App settings that decide memorize and filter condition. */
  isSignupEnabled: boolean;
  aiQueryMethod: AppSettings["aiQueryMethod"];
};

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The tag of a field in the instructions: [name]. */
export const fieldTag = (name: string) => `[${name}]`;

export const isTagUsed = (name: string, instructions: string) => instructions.includes(fieldTag(name));

/** "A field needs activation when its [name] tag does not appear in the app instructions and it is not personal." */
export function needsActivation(
  field: Pick<CustomField, "name" | "personal">,
  instructions: string,
): boolean {
  return !field.personal && !isTagUsed(field.name, instructions);
}

/** "A field cannot be deleted while its tag is in the instructions." */
export function checkFieldDelete(name: string, instructions: string): RuleError | null {
  return isTagUsed(name, instructions) ? { key: "fieldInUse", vars: { name } } : null;
}

/**
 * "Non-admins, and any user during first load, do not get place or tool_item_select. Photo is
 * for paid plans only." Photo stays in the list on free plans: picking it opens the upgrade
 * dialog (see photoNeedsUpgrade).
 */
export function offeredFieldTypes(opts: { isAdmin: boolean; firstLoad: boolean }): FieldType[] {
  const adminTypes = opts.isAdmin && !opts.firstLoad;
  return FIELD_TYPES.filter((t) => adminTypes || (t !== "place" && t !== "tool_item_select"));
}

export const ADMIN_FIELD_TYPES: readonly FieldType[] = ["place", "tool_item_select"];

export function photoNeedsUpgrade(type: FieldType, ctx: Pick<FieldRuleContext, "photoFields">): boolean {
  return type === "photo" && !ctx.photoFields;
}

/** A new field's name: not reserved, unique case-insensitively. */
export function checkNewFieldName(
  name: string,
  fields: readonly Pick<CustomField, "name">[],
): RuleError | null {
  if (sameName(name, RESERVED_FIELD_NAME)) return { key: "reservedFieldName" };
  if (fields.some((f) => sameName(f.name, name))) return { key: "fieldExists" };
  return null;
}

/**
 * "There can be a maximum of {n} custom fields": room for one more field under the plan's count.
 * The editor asks before adding; checkContent is the save's own check of the same limit.
 */
export function checkFieldCount(
  count: number,
  ctx: Pick<FieldRuleContext, "maxCustomFields">,
): RuleError | null {
  return count >= ctx.maxCustomFields ? { key: "maxCustomFields", vars: { n: ctx.maxCustomFields } } : null;
}

/** Turns a label into a field name: lower case, words joined by underscores. */
export function fieldNameFrom(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** An option label: not empty ('Option is empty'), unique case-insensitively ('Option already exists'). */
export function checkOptionLabel(
  label: string,
  options: readonly FieldOption[],
  ignoreIndex = -1,
): RuleError | null {
  if (label.trim() === "") return { key: "optionEmpty" };
  if (options.some((o, i) => i !== ignoreIndex && sameName(o.label, label))) return { key: "optionExists" };
  return null;
}

/**
 * What a field becomes under the rules that decide values rather than refuse them: "An email
 * field is always personal"; memorize "only when signup is enabled and the type is not photo";
 * filter condition only for the smart items filtering query method.
 */
export function normalizeField(
  field: CustomField,
  ctx: Pick<FieldRuleContext, "isSignupEnabled" | "aiQueryMethod">,
) {
  return {
    ...field,
    personal: field.type === "email" ? true : field.personal,
    memorize: ctx.isSignupEnabled && field.type !== "photo" ? field.memorize : false,
    filterCondition: ctx.aiQueryMethod === "smart_items_filtering" ? field.filterCondition : "none",
    options: field.type === "select" || field.type === "multiselect" ? field.options : [],
  } satisfies CustomField;
}

export const memorizeOffered = (type: FieldType, isSignupEnabled: boolean) =>
  isSignupEnabled && type !== "photo";
export const filterConditionOffered = (method: AppSettings["aiQueryMethod"]) =>
  method === "smart_items_filtering";

/**
 * Checks the fields, steps and instructions of content about to be saved against what was saved
 * before. Limits that a plan change can leave exceeded (more fields than a downgraded plan
 * allows, photo fields made on a paid plan) refuse only what is new, never what exists.
 */
export function checkContent(
  next: Pick<AppContent, "fields" | "gptPrompt" | "isMultiStepInput" | "inputSteps">,
  prev: Pick<AppContent, "fields">,
  ctx: FieldRuleContext,
): RuleError | null {
  const prevTypes = new Map(prev.fields.map((f) => [f.name.toLowerCase(), f.type]));
  // A field is new to a type when it did not have that type before (a new field, or a changed type).
  const isNew = (f: CustomField) => prevTypes.get(f.name.toLowerCase()) !== f.type;

  if (next.fields.length > Math.max(ctx.maxCustomFields, prev.fields.length)) {
    return { key: "maxCustomFields", vars: { n: ctx.maxCustomFields } };
  }
  const seen: string[] = [];
  for (const field of next.fields) {
    if (sameName(field.name, RESERVED_FIELD_NAME)) return { key: "reservedFieldName" };
    if (seen.some((n) => sameName(n, field.name))) return { key: "fieldExists" };
    seen.push(field.name);
    if (isNew(field) && field.type === "photo" && !ctx.photoFields)
      return { key: "upgradeReasonPhotoFields" };
    if (isNew(field) && ADMIN_FIELD_TYPES.includes(field.type) && !ctx.isAdmin) {
      return { key: "fieldTypeAdminOnly", vars: { type: field.type } };
    }
    const labels: FieldOption[] = [];
    for (const option of field.options) {
      const bad = checkOptionLabel(option.label, labels);
      if (bad) return bad;
      labels.push(option);
    }
  }
  const kept = new Set(next.fields.map((f) => f.name.toLowerCase()));
  for (const gone of prev.fields.filter((f) => !kept.has(f.name.toLowerCase()))) {
    const inUse = checkFieldDelete(gone.name, next.gptPrompt);
    if (inUse) return inUse;
  }
  if (next.isMultiStepInput && next.fields.length === 0) return { key: "stepsNeedFields" };
  if (next.isMultiStepInput) {
    const steps = new Set(next.inputSteps.map((s) => s.id));
    if (next.fields.some((f) => f.stepId !== null && !steps.has(f.stepId))) return { key: "stepUnknown" };
  }
  return null;
}

const STEP_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** "Input step: id (4-character generated when missing)". */
export function newStepId(taken: readonly string[] = []): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(STEP_ID_LENGTH));
    const id = Array.from(bytes, (b) => STEP_ID_ALPHABET[b % STEP_ID_ALPHABET.length]).join("");
    if (!taken.includes(id)) return id;
  }
}

/** "blocks (built from gptPrompt if blocks are empty)". */
export function blocksFor(content: Pick<AppContent, "blocks" | "gptPrompt">): AppContent["blocks"] {
  if (content.blocks.length > 0 || content.gptPrompt.trim() === "") return content.blocks;
  return [{ type: "instructions", text: content.gptPrompt }];
}

/** "Tool path: letters, numbers and dashes only, not empty, unique among tools." */
export function checkToolPath(path: string, otherPaths: readonly string[]): RuleError | null {
  if (!TOOL_PATH.test(path)) return { key: "toolPathInvalid" };
  if (otherPaths.some((p) => sameName(p, path))) return { key: "toolPathTaken" };
  return null;
}

/** Turns a title into a tool path: "Meal Planner!" -> "meal-planner". */
export function toolPathFrom(title: string): string {
  return (
    title
      .trim()
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "tool"
  );
}

/** "A new template category name must not be empty ... and must be unique ...; its length is capped." */
export function checkCategoryName(name: string, categories: readonly string[]): RuleError | null {
  if (name.trim() === "") return { key: "categoryEmpty" };
  if (categories.some((c) => sameName(c, name))) return { key: "categoryExists" };
  if (name.trim().length > TEMPLATE_CATEGORY_MAX) return { key: "invalidInput" };
  return null;
}
