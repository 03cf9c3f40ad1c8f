import type { PublicContent, PublicField } from "@/lib/apps/public-content";
import { RESERVED_FIELD_NAME } from "@/lib/constants";
import { runsMessages } from "@/lib/messages/runs";
import type { RunInputValue } from "@/lib/runs/schemas";
import { fillTemplate } from "@/lib/text";

// The values of a tool's form on the public page, kept as the controls hold them (text, or the
// picked labels of a multiselect), and turned into the run's `inputs`. The checks
// here are the server's own (lib/runs/inputs.ts) made in the browser first, with the same
// messages, so the form can say what is missing before anything is sent.

export type FormValues = Record<string, string | string[]>;

/** An input field with something wrong, and what to tell the user. */
export type FieldError = { name: string; message: string };

export type FormFields = Pick<PublicContent, "fields" | "isInputHidden">;

/** The empty form: the main input (unless hidden) and every field. */
export function emptyValues(content: FormFields): FormValues {
  const values: FormValues = {};
  if (!content.isInputHidden) values[RESERVED_FIELD_NAME] = "";
  for (const f of content.fields) values[f.name] = f.type === "multiselect" ? [] : "";
  return values;
}

const labelOf = (f: Pick<PublicField, "label" | "name">) => f.label || f.name;

const isBlank = (v: string | string[] | undefined) =>
  v === undefined || (Array.isArray(v) ? v.length === 0 : v.trim() === "");

/** The first field of `fields` that the server would refuse, with its message; null when all pass. */
export function checkFields(fields: readonly PublicField[], values: FormValues): FieldError | null {
  for (const f of fields) {
    const v = values[f.name];
    if (f.required && isBlank(v)) {
      return { name: f.name, message: fillTemplate(runsMessages.runFieldRequired, { label: labelOf(f) }) };
    }
    if ((f.type === "height" || f.type === "weight") && typeof v === "string" && v.trim() !== "") {
      const n = Number(v.trim().replace(",", "."));
      if (!Number.isFinite(n) || n < 0) {
        return { name: f.name, message: fillTemplate(runsMessages.runNumberInvalid, { label: labelOf(f) }) };
      }
    }
  }
  return null;
}

/** The run's `inputs`: every value as the route takes it (numbers for height and weight). */
export function toRunInputs(content: FormFields, values: FormValues): Record<string, RunInputValue> {
  const inputs: Record<string, RunInputValue> = {};
  if (!content.isInputHidden) {
    const main = values[RESERVED_FIELD_NAME];
    inputs[RESERVED_FIELD_NAME] = typeof main === "string" ? main : "";
  }
  for (const f of content.fields) {
    const v = values[f.name];
    if (f.type === "multiselect") inputs[f.name] = Array.isArray(v) ? v : [];
    else if (f.type === "height" || f.type === "weight") {
      const text = typeof v === "string" ? v.trim().replace(",", ".") : "";
      inputs[f.name] = text === "" ? null : Number.isFinite(Number(text)) ? Number(text) : text;
    } else inputs[f.name] = typeof v === "string" ? v : "";
  }
  return inputs;
}

/** A remembered value as the field's control holds it; null when it does not fit the field. */
function asControlValue(field: PublicField, value: RunInputValue | undefined): string | string[] | null {
  if (value === null || value === undefined) return null;
  if (field.type === "multiselect") {
    const list = Array.isArray(value) ? value : [String(value)];
    // Only options the field still has: one removed since would be refused by the run.
    const known = list.filter((l) => field.options.some((o) => o.label === l));
    return known.length ? known : null;
  }
  if (Array.isArray(value)) return value.join(", ");
  if ((field.type === "select" || field.type === "tool_item_select") && field.options.length > 0) {
    return field.options.some((o) => o.label === String(value)) ? String(value) : null;
  }
  return String(value);
}

/**
 * What to put in the form for a signed-in end user: the session's email in email fields (an
 * email field is always personal) and the remembered answers of memorize fields.
 * Only empty fields are filled: what the user has typed meanwhile wins.
 */
export function prefill(
  fields: readonly PublicField[],
  values: FormValues,
  from: { email?: string | null; memories?: Record<string, RunInputValue> },
): { values: FormValues; filled: string[] } {
  const next = { ...values };
  const filled: string[] = [];
  for (const f of fields) {
    if (!isBlank(next[f.name])) continue;
    const remembered = f.memorize ? asControlValue(f, from.memories?.[f.name]) : null;
    const value = remembered ?? (f.type === "email" && from.email ? from.email : null);
    if (value !== null) {
      next[f.name] = value;
      if (remembered !== null) filled.push(f.name);
    }
  }
  return { values: next, filled };
}

/** Whether this form has fields whose answers the app remembers for its signed-in users. */
export const hasMemorizeFields = (fields: readonly PublicField[]) =>
  fields.some((f) => f.memorize && f.type !== "photo");
