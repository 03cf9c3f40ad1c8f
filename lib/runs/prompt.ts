import { blocksFor, fieldTag, isTagUsed, needsActivation } from "@/lib/apps/field-rules";
import type { AppContent, CustomField } from "@/lib/apps/schemas";
import { RESERVED_FIELD_NAME } from "@/lib/constants";
import type { CheckedInputs, InputValue } from "./inputs";

// The words the model gets for a run (pure; the data comes from lib/runs/grounding.ts):
// - system: the tool's instructions, every [name] tag of a field replaced by its value ([input]
//   is the main input), then the personal fields (they need no tag), then the app's data;
// - user: the main input, unless the instructions already place it with [input]; then each photo
//   (a photo field's upload, sent as an image part) after a line naming its field.
// A field that needs activation (no tag, not personal) is not sent: the builder has not used it.
// A photo's tag reads as a mention of the attached photo, never as its address.

export type Grounding =
  | { kind: "chunks"; chunks: { itemName: string; text: string }[] }
  | { kind: "rows"; rows: Record<string, string>[] }
  | { kind: "none" };

/** A photo the user turn carries: its field, and the line before it that names the field. */
export type PromptPhoto = { field: string; caption: string };

export type Prompt = { instructions: string; prompt: string; photos: PromptPhoto[] };

/** What a value reads as in the prompt. */
export function valueText(
  field: (Pick<CustomField, "type"> & Partial<Pick<CustomField, "label" | "name">>) | null,
  value: InputValue,
): string {
  if (value === null) return NOT_GIVEN;
  if (field?.type === "photo") return `the photo "${photoName(field)}" (attached)`;
  if (Array.isArray(value)) return value.join(", ");
  if (field?.type === "height") return `${value} cm`;
  if (field?.type === "weight") return `${value} kg`;
  return String(value);
}

const NOT_GIVEN = "(not given)";
const photoName = (field: Partial<Pick<CustomField, "label" | "name">>) =>
  (field.label || field.name || "photo").replace(/"/g, "'");
/** The user turn when the instructions already hold the main input. */
export const FOLLOW_INSTRUCTIONS = "Answer now, following the instructions.";

export function buildPrompt(
  content: Pick<AppContent, "blocks" | "gptPrompt">,
  fields: readonly CustomField[],
  inputs: CheckedInputs,
  grounding: Grounding,
): Prompt {
  const template = blocksFor(content)
    .map((b) => b.text.trim())
    .filter(Boolean)
    .join("\n\n");
  const mainInput = inputs[RESERVED_FIELD_NAME] ?? null;

  // Every tag in one pass, so a value that happens to contain "[other]" is never replaced again.
  const byTag = new Map<string, string>();
  byTag.set(fieldTag(RESERVED_FIELD_NAME), valueText(null, mainInput));
  for (const field of fields) byTag.set(fieldTag(field.name), valueText(field, inputs[field.name] ?? null));
  const instructions = template.replace(/\[[^[\]\n]{1,100}\]/g, (tag) => byTag.get(tag) ?? tag);

  const sections = [instructions];
  const personal = fields.filter(
    (f) => f.personal && !isTagUsed(f.name, template) && (inputs[f.name] ?? null) !== null,
  );
  if (personal.length) {
    sections.push(
      [
        "About the user:",
        ...personal.map((f) => `- ${f.label || f.name}: ${valueText(f, inputs[f.name]!)}`),
      ].join("\n"),
    );
  }
  const data = groundingText(grounding);
  if (data) sections.push(data);

  const mainTagged = isTagUsed(RESERVED_FIELD_NAME, template);
  const prompt = !mainTagged && typeof mainInput === "string" && mainInput ? mainInput : FOLLOW_INSTRUCTIONS;
  const photos = fields
    .filter((f) => f.type === "photo" && (inputs[f.name] ?? null) !== null && !needsActivation(f, template))
    .map((f) => ({ field: f.name, caption: `The photo "${photoName(f)}":` }));
  return { instructions: sections.filter(Boolean).join("\n\n"), prompt, photos };
}

function groundingText(g: Grounding): string {
  if (g.kind === "chunks" && g.chunks.length) {
    return [
      "Use the following excerpts of the app's data where they are relevant, and prefer them to general knowledge:",
      ...g.chunks.map(
        (c, i) => `<excerpt ${i + 1} source="${c.itemName.replace(/"/g, "'")}">\n${c.text}\n</excerpt>`,
      ),
    ].join("\n");
  }
  if (g.kind === "rows" && g.rows.length) {
    return [
      "These items of the app's data match the user's choices; base the answer on them:",
      ...g.rows.map(
        (r, i) =>
          `${i + 1}. ${Object.entries(r)
            .map(([k, v]) => `${k}: ${v}`)
            .join("; ")}`,
      ),
    ].join("\n");
  }
  return "";
}

/**
 * What a run searches the app's data with: the main input and the field values as the end user
 * gave them, one per line. Retrieval splits them into terms as it split the data (one tokenizer:
 * lib/context/retrieve.ts), so a code such as `0.21` or `audio/midi` stays whole.
 */
export function retrievalQuery(inputs: CheckedInputs): string {
  const parts: string[] = [];
  for (const value of Object.values(inputs)) {
    if (value === null) continue;
    parts.push(Array.isArray(value) ? value.join("\n") : String(value));
  }
  return parts.join("\n").trim();
}
