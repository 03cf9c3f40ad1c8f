import {
  checkFieldCount,
  checkNewFieldName,
  checkOptionLabel,
  type FieldRuleContext,
  fieldNameFrom,
  fieldTag,
  newStepId,
  normalizeField,
  offeredFieldTypes,
  photoNeedsUpgrade,
  type RuleError,
} from "@/lib/apps/field-rules";
import {
  type AppContent,
  CustomField,
  type FieldOption,
  type FieldType,
  type InputStep,
} from "@/lib/apps/schemas";
import { FIELD_LABEL_MAX, FIELD_NAME_MAX, INSTRUCTIONS_MAX, OPTION_LABEL_MAX } from "@/lib/constants";
import type { MessageKey } from "@/lib/messages";
import { isUpgradeReason, type UpgradeReason } from "@/lib/plans/upgrade-reasons";

// The edits of the custom fields panel as pure functions: each takes the panel's value and
// answers the patch to send (or the rule it breaks), so the rules are tested without a browser
// and the component only wires them to inputs.

/** What the panel edits: the part of the app content it receives. */
export type FieldsValue = Pick<AppContent, "fields" | "inputSteps" | "isMultiStepInput" | "gptPrompt">;
export type FieldsPatch = Partial<
  Pick<AppContent, "fields" | "inputSteps" | "isMultiStepInput" | "gptPrompt">
>;
export type PanelContext = FieldRuleContext & { firstLoad: boolean };

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: RuleError };
const fail = (error: RuleError) => ({ ok: false, error }) as const;

/** Why a type cannot be picked here: an admin-only type, or photo on a plan without it. */
export type TypeBlock = "adminOnly" | "upgrade" | null;

export function typeBlock(type: FieldType, ctx: PanelContext): TypeBlock {
  if (!offeredFieldTypes(ctx).includes(type)) return "adminOnly";
  if (photoNeedsUpgrade(type, ctx)) return "upgrade";
  return null;
}

/**
 * A new field from what the builder typed: the typed text becomes the label and, in lower case
 * with underscores, the name (so its tag [name] is easy to type in the instructions).
 */
export function planNewField(
  typed: string,
  type: FieldType,
  value: FieldsValue,
  ctx: PanelContext,
): Outcome<CustomField> {
  const full = checkFieldCount(value.fields.length, ctx);
  if (full) return fail(full);
  const name = fieldNameFrom(typed).slice(0, FIELD_NAME_MAX).replace(/_+$/, "");
  if (!name) return fail({ key: "fieldNameEmpty" });
  const taken = checkNewFieldName(name, value.fields);
  if (taken) return fail(taken);
  if (typeBlock(type, ctx) === "adminOnly") return fail({ key: "fieldTypeAdminOnly", vars: { type } });
  if (typeBlock(type, ctx) === "upgrade") return fail({ key: "upgradeReasonPhotoFields" });
  const field = CustomField.parse({
    name,
    label: typed.trim().slice(0, FIELD_LABEL_MAX),
    type,
    stepId: value.isMultiStepInput ? (value.inputSteps.at(-1)?.id ?? null) : null,
  });
  return { ok: true, value: normalizeField(field, ctx) };
}

/**
 * A field made by magic create, checked like a typed one before it is added: the name free and
 * not 'input' (with the magic-name messages), room under the plan's count, and a
 * type this builder may pick here (else text, since the rest of the design still helps).
 */
export function planMagicField(
  result: CustomField,
  value: FieldsValue,
  ctx: PanelContext,
): Outcome<CustomField> {
  const full = checkFieldCount(value.fields.length, ctx);
  if (full) return fail(full);
  const taken = checkNewFieldName(result.name, value.fields);
  if (taken) return fail(taken.key === "fieldExists" ? { key: "magicFieldExists" } : taken);
  const type: FieldType = typeBlock(result.type, ctx) ? "text" : result.type;
  const field: CustomField = {
    ...result,
    type,
    stepId: value.isMultiStepInput ? (value.inputSteps.at(-1)?.id ?? null) : null,
  };
  return { ok: true, value: normalizeField(field, ctx) };
}

/**
 * What a magicCreate answer means for the builder: a field, or the message to show
 * (with the plan limit behind it, when an upgrade lifts it: the builder's model budget).
 * `status` 0 means the request itself failed (network): 'Failed creating the field'.
 */
export function readMagicAnswer(
  status: number,
  body: unknown,
):
  | { ok: true; field: CustomField }
  | { ok: false; message: string | null; key: MessageKey; upgradeReason?: UpgradeReason } {
  if (status === 0) return { ok: false, key: "magicCreateFieldFailed", message: null };
  if (status < 200 || status >= 300) {
    const answer = body as { error?: { message?: unknown }; upgradeReason?: unknown } | null;
    const message = answer?.error?.message;
    const reason = answer?.upgradeReason;
    return {
      ok: false,
      key: "magicEditFailed",
      message: typeof message === "string" && message ? message : null,
      ...(typeof reason === "string" && isUpgradeReason(reason) ? { upgradeReason: reason } : {}),
    };
  }
  const result = (body as { result?: unknown } | null)?.result;
  const name = (result as { name?: unknown } | null)?.name;
  if (typeof name !== "string" || name.trim() === "")
    return { ok: false, key: "magicEditNoName", message: null };
  const parsed = CustomField.safeParse(result);
  if (!parsed.success) return { ok: false, key: "magicCreateFieldFailed", message: null };
  return { ok: true, field: parsed.data };
}

/** Adds a field at the end. */
export function addField(value: FieldsValue, field: CustomField): FieldsPatch {
  return { fields: [...value.fields, field] };
}

/**
 * Removes a field. The last field gone turns multi-step input off too: steps need a field
 * ('Add a custom field before splitting the input into steps'), and the save would refuse it.
 */
export function removeField(value: FieldsValue, name: string): FieldsPatch {
  const fields = value.fields.filter((f) => f.name !== name);
  return fields.length === 0 && value.isMultiStepInput ? { fields, isMultiStepInput: false } : { fields };
}

/** Changes one field, keeping the rules that decide values (email personal, memorize, ...). */
export function updateField(
  value: FieldsValue,
  name: string,
  change: Partial<Omit<CustomField, "name">>,
  ctx: PanelContext,
): FieldsPatch {
  return {
    fields: value.fields.map((f) => (f.name === name ? normalizeField({ ...f, ...change }, ctx) : f)),
  };
}

/** Moves an item of a list from one position to another. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/**
 * The instructions with a field's tag added at the end ("one-click activation"), or null when
 * the instructions would grow past their maximum.
 */
export function appendTag(prompt: string, name: string): string | null {
  const tag = fieldTag(name);
  const sep = prompt === "" || /\s$/.test(prompt) ? "" : " ";
  const next = `${prompt}${sep}${tag}`;
  return next.length > INSTRUCTIONS_MAX ? null : next;
}

// ---- options ----

/** A new option at the end: not empty, unique, within the length cap. */
export function addOption(options: readonly FieldOption[], label: string): Outcome<FieldOption[]> {
  const broken = checkOptionLabel(label, options);
  if (broken) return fail(broken);
  return { ok: true, value: [...options, { label: label.trim().slice(0, OPTION_LABEL_MAX), iconUrl: null }] };
}

/** An option renamed; the same rules, ignoring the option itself. */
export function renameOption(
  options: readonly FieldOption[],
  index: number,
  label: string,
): Outcome<FieldOption[]> {
  const broken = checkOptionLabel(label, options, index);
  if (broken) return fail(broken);
  const trimmed = label.trim().slice(0, OPTION_LABEL_MAX);
  return { ok: true, value: options.map((o, i) => (i === index ? { ...o, label: trimmed } : o)) };
}

// ---- steps ----

/**
 * Multi-step input on or off. On: "only when custom fields exist"; a first step is made when
 * there is none, and fields not yet in a step join the first one.
 */
export function setMultiStep(value: FieldsValue, on: boolean): Outcome<FieldsPatch> {
  if (!on) return { ok: true, value: { isMultiStepInput: false } };
  if (value.fields.length === 0) return fail({ key: "stepsNeedFields" });
  const steps = value.inputSteps.length > 0 ? value.inputSteps : [{ id: newStepId(), title: "" }];
  const ids = new Set(steps.map((s) => s.id));
  const first = steps[0].id;
  const fields = value.fields.map((f) => (f.stepId && ids.has(f.stepId) ? f : { ...f, stepId: first }));
  return { ok: true, value: { isMultiStepInput: true, inputSteps: steps, fields } };
}

export function addStep(steps: readonly InputStep[]): InputStep[] {
  return [
    ...steps,
    {
      id: newStepId(steps.map((s) => s.id)),
      title: "",
    },
  ];
}

/**
 * Removes a step; its fields move to the step before it (or the new first step). The only
 * step stays: a multi-step input needs one.
 */
export function removeStep(value: FieldsValue, id: string): Outcome<FieldsPatch> {
  const index = value.inputSteps.findIndex((s) => s.id === id);
  if (index < 0) return { ok: true, value: {} };
  if (value.inputSteps.length <= 1) return fail({ key: "stepKeepOne" });
  const inputSteps = value.inputSteps.filter((s) => s.id !== id);
  const target = inputSteps[Math.max(0, index - 1)].id;
  const fields = value.fields.map((f) => (f.stepId === id ? { ...f, stepId: target } : f));
  return { ok: true, value: { inputSteps, fields } };
}

/** The step a field shows in: its own, or the first when it has none (or an unknown one). */
export function stepOf(field: Pick<CustomField, "stepId">, steps: readonly InputStep[]): string | null {
  if (field.stepId && steps.some((s) => s.id === field.stepId)) return field.stepId;
  return steps[0]?.id ?? null;
}
