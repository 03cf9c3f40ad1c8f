import "server-only";
import type { RunContext } from "@/db/schema";
import type { AppSettings, CustomField } from "@/lib/apps/schemas";
import { CONTEXT_RETRIEVE_LIMIT, RUN_MATCHED_ROWS_MAX } from "@/lib/constants";
import { findMatchingRows, type RowCondition, retrieveChunks } from "@/lib/context/retrieve";
import type { CheckedInputs } from "./inputs";
import { type Grounding, retrievalQuery } from "./prompt";

// The app's data a run is grounded in, by the app's query method (aiQueryMethod):
// - default: the chunks of its synced data sources that best match the inputs' words;
// - smart items filtering: the CSV rows selected by the fields' include / exclude conditions
//   (each field's filterCondition) with the values the end user gave.
// Beside what the prompt gets, the same data with where it came from (and the excerpts' scores),
// which the run records when it ends, so its builder can see what the model was given.

export type RunGrounding = { grounding: Grounding; context: RunContext };

export async function groundingFor(
  appId: string,
  settings: Pick<AppSettings, "aiQueryMethod">,
  fields: readonly CustomField[],
  inputs: CheckedInputs,
): Promise<RunGrounding> {
  if (settings.aiQueryMethod === "smart_items_filtering") {
    const rows = await findMatchingRows(appId, rowConditions(fields, inputs), {
      limit: RUN_MATCHED_ROWS_MAX,
    });
    return {
      grounding: { kind: "rows", rows: rows.map((r) => r.data) },
      context: {
        kind: "rows",
        rows: rows.map((r) => ({ itemId: r.itemId, position: r.position, data: r.data })),
      },
    };
  }
  const query = retrievalQuery(inputs);
  if (!query) return { grounding: { kind: "none" }, context: { kind: "none" } };
  const chunks = await retrieveChunks(appId, query, CONTEXT_RETRIEVE_LIMIT);
  return {
    grounding: { kind: "chunks", chunks: chunks.map((c) => ({ itemName: c.itemName, text: c.text })) },
    context: {
      kind: "chunks",
      excerpts: chunks.map((c) => ({
        itemId: c.itemId,
        itemName: c.itemName,
        position: c.position,
        text: c.text,
        score: c.score,
      })),
    },
  };
}

/**
 * One condition per field with a filter condition: its column is the field's label (what the
 * builder reads as the list's column), or its name when it has no label; its values are what the
 * end user gave. A field left empty filters nothing.
 */
export function rowConditions(fields: readonly CustomField[], inputs: CheckedInputs): RowCondition[] {
  const out: RowCondition[] = [];
  for (const f of fields) {
    if (f.filterCondition !== "include" && f.filterCondition !== "exclude") continue;
    const v = inputs[f.name] ?? null;
    const values = v === null ? [] : Array.isArray(v) ? v : [String(v)];
    if (values.length === 0) continue;
    out.push({ column: (f.label || f.name).trim(), values, mode: f.filterCondition });
  }
  return out;
}
