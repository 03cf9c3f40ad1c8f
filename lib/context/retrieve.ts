import "server-only";
import { type RetrievedChunk, searchContextChunks } from "@/db/queries/context";
import { CONTEXT_RETRIEVE_LIMIT } from "@/lib/constants";

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
