import "server-only";
import { generateText } from "ai";
import { findTool } from "@/db/queries/apps";
import { reserveModelCall } from "@/lib/ai/model-budget";
import { defaultModelId, languageModel } from "@/lib/ai/provider";
import { loadEditableApp } from "@/lib/apps/access";
import {
  checkNewFieldName,
  checkOptionLabel,
  type FieldRuleContext,
  fieldNameFrom,
  normalizeField,
  offeredFieldTypes,
} from "@/lib/apps/field-rules";
import { fieldRuleContext } from "@/lib/apps/save-app";
import { AppContent, CustomField, type FieldOption, type FieldType, ToolContent } from "@/lib/apps/schemas";
import type { Session } from "@/lib/auth/session";
import {
  FIELD_INSTRUCTIONS_MAX,
  FIELD_LABEL_MAX,
  FIELD_NAME_MAX,
  MAGIC_CREATE_TIMEOUT_MS,
  MAGIC_OPTIONS_MAX,
  OPTION_LABEL_MAX,
} from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { extractFirstJson } from "@/lib/json/extract-first-json";
import { logError } from "@/lib/log";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { sessionPlan } from "@/lib/plans/owner-plan";
import type { MagicCreateAnswer, MagicCreateBody } from "./schemas";

// POST /api/builder/magicCreate, magicType "field": the builder types a field name (or a few
// words), the model designs the field, and the answer is a field the editor can add as it is.
// Whatever the model says, the result obeys the same rules as a hand-made field: a name that
// is unique and not 'input', only the types this caller may add, options only where they
// belong, every length within the schema's limits.
//
// Errors (the spec's wording): a refused name is answered before the model is asked; a provider
// that fails or is down is 502 'Magic edit failed'; output with no usable name - no JSON object
// at all included - is 502 'Magic edit failed, try again using a different field name', since
// for the builder both mean the same: this name did not work, try another.

export async function magicCreateField(
  session: Session,
  body: MagicCreateBody,
  signal?: AbortSignal,
): Promise<MagicCreateAnswer> {
  const { ctx, existing } = await editingContext(session, body);

  // The typed name itself may already be refused: no need to ask the model. Nor when it has no
  // letter or digit of any script (an emoji, invisible marks): no name can come from it.
  if (!/[\p{L}\p{N}]/u.test(body.input))
    throw new AppError("BAD_REQUEST", "magicEditNoName", "NO_FIELD_NAME");
  const typed = fieldNameFrom(body.input);
  if (typed) assertNameFree(typed, existing);

  const model = languageModel(defaultModelId());
  const types = allowedTypes(ctx);
  // 429 once the builder's model budget is spent: the model is not asked.
  await reserveModelCall(session);
  let text: string;
  try {
    ({ text } = await generateText({
      model,
      instructions: instructionsFor(types, existing),
      prompt: promptFor(body),
      temperature: 0.2,
      maxOutputTokens: 800,
      maxRetries: 1,
      timeout: MAGIC_CREATE_TIMEOUT_MS,
      abortSignal: signal,
    }));
  } catch (err) {
    logError("magicCreate: the model call failed", { err });
    throw new AppError("BAD_GATEWAY", "magicEditFailed", "MODEL_FAILED");
  }

  let output: unknown;
  try {
    output = extractFirstJson(text);
  } catch {
    throw new AppError("BAD_GATEWAY", "magicEditNoName", "LLM_OUTPUT_NOT_JSON");
  }
  const field = fieldFromModel(output, types);
  if (!field) throw new AppError("BAD_GATEWAY", "magicEditNoName", "NO_FIELD_NAME");
  assertNameFree(field.name, existing);
  return { result: normalizeField(field, ctx) };
}

/** The rules that apply and the names already taken: the app's (or tool's) and the editor's. */
async function editingContext(session: Session, body: MagicCreateBody) {
  const existing = [...body.existingNames];
  if (!body.appId) {
    const caps = getPlanCapabilities(sessionPlan(session));
    const ctx: FieldRuleContext = {
      isAdmin: session.account?.isAdmin ?? false,
      maxCustomFields: caps.maxCustomFields,
      photoFields: caps.photoFields,
      isSignupEnabled: false,
      aiQueryMethod: "default",
    };
    return { ctx, existing };
  }
  const app = await loadEditableApp(session, body.appId);
  if (body.toolId) {
    const tool = await findTool(app.id, body.toolId);
    if (!tool) throw new AppError("NOT_FOUND", "toolNotFound");
    existing.push(...ToolContent.parse(tool.content).fields.map((f) => f.name));
  } else {
    existing.push(...AppContent.parse(app.content).fields.map((f) => f.name));
  }
  return { ctx: await fieldRuleContext(session, app), existing };
}

function assertNameFree(name: string, existing: readonly string[]): void {
  const broken = checkNewFieldName(
    name,
    existing.map((n) => ({ name: n })),
  );
  if (broken?.key === "reservedFieldName") {
    throw new AppError("BAD_REQUEST", "reservedFieldName", "FIELD_NAME_RESERVED");
  }
  if (broken) throw new AppError("CONFLICT", "magicFieldExists", "FIELD_EXISTS");
}

/** "Non-admins ... do not get place or tool_item_select. Photo is for paid plans only." */
function allowedTypes(ctx: Pick<FieldRuleContext, "isAdmin" | "photoFields">): FieldType[] {
  return offeredFieldTypes({ isAdmin: ctx.isAdmin, firstLoad: false }).filter(
    (t) => t !== "photo" || ctx.photoFields,
  );
}

function instructionsFor(types: readonly FieldType[], existing: readonly string[]): string {
  return [
    "You design one input field of the form of an AI tool: the end user fills it in, and the tool's instructions use the value.",
    "Answer with ONE JSON object and nothing else. Its keys:",
    `- "name": the field's identifier in snake_case (lower-case letters, digits and underscores), at most ${FIELD_NAME_MAX} characters, based on what the builder typed.`,
    `  Never "input"${existing.length ? `, and none of these names, which are taken: ${existing.map((n) => JSON.stringify(n)).join(", ")}` : ""}.`,
    '- "label": a short label shown to the end user.',
    '- "type": one of the allowed types below.',
    '- "required": true when the tool cannot work without it, else false.',
    '- "instructions": one sentence for the tool on how to use the value.',
    `- "options": only for select and multiselect: 2 to ${MAGIC_OPTIONS_MAX} options, each {"label": "..."}.`,
    `Allowed types: ${types.join(", ")}`,
    "text is one line, long_text several lines, select one choice, multiselect several choices.",
  ].join("\n");
}

function promptFor(body: MagicCreateBody): string {
  const context = body.prompt.trim();
  return [
    `Field name: ${JSON.stringify(body.input)}`,
    "",
    context
      ? `The tool's instructions, for context:\n"""\n${context}\n"""`
      : "The tool has no instructions yet.",
  ].join("\n");
}

// Words models use for our types.
const TYPE_SYNONYMS: Record<string, FieldType> = {
  textarea: "long_text",
  longtext: "long_text",
  paragraph: "long_text",
  string: "text",
  short_text: "text",
  dropdown: "select",
  single_select: "select",
  radio: "select",
  multi_select: "multiselect",
  checkboxes: "multiselect",
  image: "photo",
  location: "place",
  address: "place",
};

/**
 * The field in the model's JSON object, cut to the schema's limits; null when it names no
 * usable field name. A type this caller may not add becomes text.
 */
function fieldFromModel(output: unknown, types: readonly FieldType[]): CustomField | null {
  let o = asRecord(output);
  // Some models wrap the answer: { "field": { ... } }.
  if (o && typeof o.name !== "string" && asRecord(o.field)) o = asRecord(o.field);
  if (!o || typeof o.name !== "string") return null;
  const name = fieldNameFrom(o.name).slice(0, FIELD_NAME_MAX).replace(/_+$/, "");
  if (!name) return null;

  const typeWord = typeof o.type === "string" ? fieldNameFrom(o.type) : "";
  const candidate = (TYPE_SYNONYMS[typeWord] ?? typeWord) as FieldType;
  const type: FieldType = types.includes(candidate) ? candidate : "text";

  const label = (typeof o.label === "string" ? o.label.trim() : "") || humanize(name);
  const options: FieldOption[] = [];
  if ((type === "select" || type === "multiselect") && Array.isArray(o.options)) {
    for (const raw of o.options) {
      const r = asRecord(raw);
      const text =
        typeof raw === "string" ? raw : [r?.label, r?.name, r?.value].find((v) => typeof v === "string");
      const optionLabel = typeof text === "string" ? text.trim().slice(0, OPTION_LABEL_MAX) : "";
      if (checkOptionLabel(optionLabel, options)) continue; // empty or a repeat
      options.push({ label: optionLabel, iconUrl: null });
      if (options.length === MAGIC_OPTIONS_MAX) break;
    }
  }
  return CustomField.parse({
    name,
    label: label.slice(0, FIELD_LABEL_MAX),
    type,
    required: o.required === true,
    instructions:
      typeof o.instructions === "string" ? o.instructions.trim().slice(0, FIELD_INSTRUCTIONS_MAX) : "",
    options,
  });
}

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

const humanize = (name: string) => {
  const words = name.replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
