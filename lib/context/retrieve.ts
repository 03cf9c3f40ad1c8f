import "server-only";
import {
  findMatchingContextRows,
  type MatchedRow,
  type RetrievedChunk,
  type RowCondition,
  searchContextChunks,
} from "@/db/queries/context";
import { CONTEXT_RETRIEVE_LIMIT } from "@/lib/constants";

export type { MatchedRow, RowCondition };

/**
 * The chunks of this app's synced data sources most relevant to the query, best first, by
 * PostgreSQL full-text search (websearch syntax: words, "phrases", -exclusions, OR). Items still
 * syncing or in error, and every other app's data, are never returned.
 */
export async function retrieveChunks(
  appId: string,
  query: string,
  limit = CONTEXT_RETRIEVE_LIMIT,
): Promise<RetrievedChunk[]> {
  if (!query.trim() || limit < 1) return [];
  return searchContextChunks(appId, query, Math.min(limit, 100));
}

// Rows handed to a model at most: a filter that matches a whole list must not send it all.
const MATCHED_ROWS_MAX = 1000;
const MATCHED_ROWS_DEFAULT = 50;

/**
 * Smart items filtering (spec 1 §5, an input field's filterCondition): the CSV rows of this app's
 * synced items whose `column` is one of `values` (include) or none of them (exclude), every
 * condition at once, compared case-insensitively and without surrounding spaces in the values
 * asked for. A condition without values (the field was left empty) filters nothing. In list
 * order: item by item, rows as in the file.
 */
export async function findMatchingRows(
  appId: string,
  conditions: readonly RowCondition[],
  opts: { limit?: number } = {},
): Promise<MatchedRow[]> {
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? MATCHED_ROWS_DEFAULT), 0), MATCHED_ROWS_MAX);
  if (limit === 0) return [];
  const effective = conditions
    .map((c) => ({ ...c, values: c.values.map((v) => v.trim()).filter((v) => v !== "") }))
    .filter((c) => c.values.length > 0);
  return findMatchingContextRows(appId, effective, limit);
}
