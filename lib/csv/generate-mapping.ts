import "server-only";
import { generateText, Output } from "ai";
import { z } from "zod";
import { reserveModelCall } from "@/lib/ai/model-budget";
import { defaultModelId, languageModel, modelEndpoint } from "@/lib/ai/provider";
import type { Session } from "@/lib/auth/session";
import { CSV_MAPPING_TIMEOUT_MS, CSV_SCHEMA_FIELDS_MAX } from "@/lib/constants";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import {
  basicMapping,
  CSV_MAPPING_PROMPT_MARKER,
  checkedMapping,
  type MappableField,
  mappableFields,
} from "./mapping";
import { CSV_DATA_TYPES, type GenerateMappingAnswer, type GenerateMappingBody } from "./schemas";

// POST /api/csv/generateMapping: the model suggests which field each column of a CSV file fills.
// The call is one of the builder's model calls (their plan's budget: 429 when it is spent, the
// model not asked). The body names no app, so the caller's own plan pays, as for magic create
// outside an app: whoever may build may ask, and only their budget is spent.
//
// Whatever goes wrong past the budget (no provider set up, provider down, timeout, an answer with
// nothing usable) the import must go on: the answer is then the basic name match, with
// `fallback` and the message the wizard shows.

/** What the model is asked to produce; loose, as everything in it is checked afterwards. */
const ModelMapping = z.object({
  mappings: z.array(
    z.object({
      csvHeader: z.string(),
      schemaField: z.string().nullable(),
      dataType: z.string().nullable().optional(),
      splitCharacter: z.string().nullable().optional(),
    }),
  ),
});

export async function generateCsvMapping(
  session: Session,
  body: GenerateMappingBody,
  signal?: AbortSignal,
): Promise<GenerateMappingAnswer> {
  const fields = mappableFields(body.schema, CSV_SCHEMA_FIELDS_MAX);
  const fallback = (): GenerateMappingAnswer => ({
    mappings: basicMapping(body.headers, fields),
    fallback: true,
    message: messages.csvMappingFallback,
  });
  // No provider set up: nothing to ask, nothing spent.
  if (!modelEndpoint()) return fallback();
  // 429 once the builder's model budget is spent: that is theirs to know, not a fallback.
  await reserveModelCall(session);
  try {
    const { output } = await generateText({
      model: languageModel(defaultModelId()),
      output: Output.object({ schema: ModelMapping, name: "csv_mapping" }),
      instructions: instructionsFor(fields),
      prompt: promptFor(body),
      temperature: 0,
      maxOutputTokens: 4000,
      maxRetries: 1,
      timeout: CSV_MAPPING_TIMEOUT_MS,
      abortSignal: signal,
    });
    const mappings = checkedMapping(output, body.headers, fields);
    if (mappings) return { mappings, fallback: false };
    logError("csv mapping: the model's answer named none of the headers", {});
  } catch (err) {
    logError("csv mapping: the model call failed", { err });
  }
  return fallback();
}

function instructionsFor(fields: readonly MappableField[]): string {
  return [
    CSV_MAPPING_PROMPT_MARKER,
    "Answer with ONE JSON object and nothing else, of this shape:",
    '{"mappings": [{"csvHeader": "...", "schemaField": "..." or null, "dataType": "...", "splitCharacter": "..." or null}]}',
    "- One entry per CSV header, with the header exactly as given.",
    "- schemaField: the entity field the column fills, exactly as named below, or null when no field fits. Two columns never fill the same field.",
    `- dataType: the field's type, one of ${CSV_DATA_TYPES.join(", ")}.`,
    '- splitCharacter: for multiselect fields, what separates the values in the sample cells: one of "," ";" "|" "\\n" "\\t"; null otherwise.',
    "Match by meaning, not only by name (e.g. 'E-mail address' fills 'email'), and use the sample rows to decide.",
    "The entity's fields (name: type):",
    ...fields.map((f) => `- ${f.name}: ${f.dataType}`),
  ].join("\n");
}

function promptFor(body: GenerateMappingBody): string {
  return [
    `Entity: ${body.entityName}`,
    `CSV headers: ${JSON.stringify(body.headers)}`,
    body.previewData.length
      ? `Sample rows:\n${body.previewData.map((row) => JSON.stringify(row)).join("\n")}`
      : "No sample rows.",
  ].join("\n");
}
