import type { CustomField, ToolContent } from "@/lib/apps/schemas";
import { RESERVED_FIELD_NAME } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { parseRunPhotoUrl } from "./run-photo";
import type { RunInputValue } from "./schemas";

// The inputs of a run checked against the tool's form: what the public page's form checks in
// the browser, checked again here, since anybody can post to the run route. The result keeps
// only the tool's own fields (and the main input), in a uniform shape, ready for the prompt and
// the run's record. A photo field takes only the address of a photo uploaded for a run
// (lib/runs/run-photo.ts); that it is this app's own is checked against the uploads by
// lib/runs/photos.ts.

/** A checked value: text, a list of option labels, or a number (height, weight); null when empty. */
export type InputValue = string | string[] | number | null;
export type CheckedInputs = Record<string, InputValue>;

const isEmpty = (v: InputValue) =>
  v === null || (Array.isArray(v) ? v.length === 0 : String(v).trim() === "");

const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function bad(
  field: CustomField,
  key: "runFieldRequired" | "runOptionInvalid" | "runNumberInvalid" | "runPhotoInvalid",
  code: string,
) {
  return new AppError("BAD_REQUEST", { key, vars: { label: field.label || field.name } }, code, {
    field: field.name,
  });
}

/** 400 PHOTO_INVALID naming the field: its value is not a photo uploaded for this app. */
export const photoFieldError = (field: CustomField) => bad(field, "runPhotoInvalid", "PHOTO_INVALID");

function checkField(field: CustomField, raw: RunInputValue | undefined): InputValue {
  let value: InputValue = raw ?? null;
  switch (field.type) {
    case "multiselect": {
      const list = value === null ? [] : Array.isArray(value) ? value : [String(value)];
      const picked: string[] = [];
      for (const v of list.map((x) => x.trim()).filter(Boolean)) {
        const option = field.options.find((o) => sameLabel(o.label, v));
        if (!option) throw bad(field, "runOptionInvalid", "OPTION_INVALID");
        if (!picked.includes(option.label)) picked.push(option.label);
      }
      value = picked.length ? picked : null;
      break;
    }
    case "select": {
      if (Array.isArray(value)) throw bad(field, "runOptionInvalid", "OPTION_INVALID");
      const v = value === null ? "" : String(value).trim();
      if (v) {
        const option = field.options.find((o) => sameLabel(o.label, v));
        // A select without options (made before any were added) takes what it is given.
        if (!option && field.options.length > 0) throw bad(field, "runOptionInvalid", "OPTION_INVALID");
        value = option?.label ?? v;
      } else value = null;
      break;
    }
    case "height":
    case "weight": {
      if (Array.isArray(value)) throw bad(field, "runNumberInvalid", "INVALID_INPUT");
      if (value === null || String(value).trim() === "") {
        value = null;
        break;
      }
      const n = typeof value === "number" ? value : Number(String(value).trim().replace(",", "."));
      if (!Number.isFinite(n) || n < 0) throw bad(field, "runNumberInvalid", "INVALID_INPUT");
      value = n;
      break;
    }
    case "photo": {
      if (Array.isArray(value) || typeof value === "number") throw photoFieldError(field);
      const v = value === null ? "" : value.trim();
      if (v && !parseRunPhotoUrl(v)) throw photoFieldError(field);
      value = v || null;
      break;
    }
    default: {
      if (Array.isArray(value)) value = value.join(", ");
      value = value === null ? null : String(value).trim() || null;
    }
  }
  if (field.required && isEmpty(value)) throw bad(field, "runFieldRequired", "FIELD_REQUIRED");
  return value;
}

/**
 * The inputs of a run, checked: 400 with the field named when a required field is empty, an
 * option is not one of the field's, or a number is not one; 400 'Please fill in the form first'
 * when nothing at all is given to a tool that asks for something.
 */
export function checkInputs(
  content: Pick<ToolContent, "isInputHidden">,
  fields: readonly CustomField[],
  raw: Record<string, RunInputValue>,
): CheckedInputs {
  const out: CheckedInputs = {};
  if (!content.isInputHidden) {
    const main = raw[RESERVED_FIELD_NAME];
    const text = Array.isArray(main)
      ? main.join(", ")
      : main === null || main === undefined
        ? ""
        : String(main);
    out[RESERVED_FIELD_NAME] = text.trim() || null;
  }
  for (const field of fields) {
    // Field names are unique case-insensitively; the form sends them as they are.
    const key =
      Object.keys(raw).find((k) => k === field.name) ??
      Object.keys(raw).find((k) => sameLabel(k, field.name));
    out[field.name] = checkField(field, key === undefined ? undefined : raw[key]);
  }
  const asksSomething = !content.isInputHidden || fields.length > 0;
  if (asksSomething && Object.values(out).every(isEmpty)) {
    throw new AppError("BAD_REQUEST", "runInputEmpty", "INPUT_EMPTY");
  }
  return out;
}

/** The inputs without the photos' addresses: words to search the app's data with, or rows to filter. */
export function withoutPhotos(fields: readonly CustomField[], inputs: CheckedInputs): CheckedInputs {
  const out = { ...inputs };
  for (const f of fields) if (f.type === "photo") out[f.name] = null;
  return out;
}
