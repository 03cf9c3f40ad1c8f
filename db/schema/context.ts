import { sql } from "drizzle-orm";
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { apps } from "./apps";

// The data sources of an app (context items) and the chunks they are split into for
// retrieval. A worker (lib/jobs/context-ingest.ts) turns an item's `content` into chunks; the
// request that adds it only writes the item and queues the job.

export const CONTEXT_ITEM_TYPES = [
  "csv",
  "doc",
  "txt",
  "pdf",
  "google doc",
  "google sheet",
  "google slide",
  "notion database",
  "notion page",
  "web page",
  "unrecognized",
] as const;
export const CONTEXT_ITEM_SOURCES = ["local files", "web scraper", "google drive", "notion"] as const;
export const CONTEXT_ITEM_STATUSES = [
  "unsynced",
  "pending",
  "running",
  "synced",
  "error",
  "usage_limit_reached",
] as const;

export type ContextItemStatus = (typeof CONTEXT_ITEM_STATUSES)[number];

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const contextItems = pgTable(
  "context_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    name: text("name").notNull().default(""),
    type: text("type", { enum: CONTEXT_ITEM_TYPES }).notNull(),
    source: text("source", { enum: CONTEXT_ITEM_SOURCES }).notNull(),
    status: text("status", { enum: CONTEXT_ITEM_STATUSES }).notNull().default("pending"),
    /** Why the last ingestion failed, in words the builder can read. */
    error: text("error"),
    /** Characters of text (or bytes of a file); the spec leaves the unit open. */
    size: integer("size").notNull().default(0),
    /** The text to ingest, for a text source; files keep theirs in storage. */
    content: text("content"),
    /** Where an uploaded file's original bytes are stored (lib/storage), for a file source. */
    fileKey: text("file_key"),
    externalFileUrl: text("external_file_url"),
    externalFileId: text("external_file_id"),
    providerItemId: text("provider_item_id"),
    provider: text("provider"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
    /** When the status last changed: the sweep of items left behind by a lost job (lib/jobs/prune.ts) reads it. */
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The ingestion job whose processing this item's owner was last charged for (monthly limit):
     * a retry of that job, after a crash or a failure, is not charged again; a new sync is.
     */
    usageJobId: uuid("usage_job_id"),
    /** Its chunks, and their indexed tokens (the sum of context_chunks.tokens): BM25's statistics. */
    chunkCount: integer("chunk_count").notNull().default(0),
    tokenCount: integer("token_count").notNull().default(0),
  },
  (t) => [
    index("context_items_app_idx").on(t.appId, t.createdAt),
    index("context_items_live_idx")
      .on(t.statusChangedAt)
      .where(sql`${t.status} in ('unsynced', 'pending', 'running')`),
  ],
);

export type ContextItem = typeof contextItems.$inferSelect;

// Chunks and rows are keyed by their item and position, with no id of their own: a random uuid
// key cost a third of a CSV row's writing (docs/data-sources.md, "Data sources: ingestion speed"),
// and (item, position) is what every query reads them by. Their primary keys keep the usual names
// (_pkey), which bench fills rely on.
// context_chunks is 8 hash partitions by item_id (migration 0018, not expressible here), so a
// search's candidate limit can stop its scan early (db/queries/context-search.ts); they have
// toast_tuple_target = 8160 (0009, 0018): a chunk with its tsvector is about 2.5 kB, past
// PostgreSQL's 2 kB default, which compressed every chunk as it was written (a tenth of a CSV's
// ingestion) and decompressed it again for every ranking.
export const contextChunks = pgTable(
  "context_chunks",
  {
    itemId: uuid("item_id")
      .notNull()
      .references(() => contextItems.id, { onDelete: "cascade" }),
    // Beside the item's, so a search of one app never joins through other apps' rows.
    appId: uuid("app_id").notNull(),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    // The text search configuration app_search (migration 0017): 'simple' (no stemming, so any
    // language matches word for word) without English stop words.
    // Always to_tsvector('app_search', text), set by the trigger context_chunks_tsv (0009, 0017)
    // unless the writer brings it, computed by PostgreSQL the same way on another connection
    // (db/queries/context-content.ts): a generated column would compute it on the writing connection.
    tsv: tsvector("tsv"),
    // Its indexed tokens (tsv's positions; stop words are not counted): BM25's chunk length. Set
    // with tsv by the same trigger unless the writer brings it.
    tokens: integer("tokens"),
  },
  (t) => [
    primaryKey({ name: "context_chunks_pkey", columns: [t.itemId, t.position] }),
    // One GIN over (app_id, tsv) (btree_gin, created by migration 0012): a search finds the
    // matching chunks of its app alone, instead of every app's and then filtering them out, and
    // it also answers app_id lookups, so no separate btree on app_id is kept (one index less to
    // grow while writing). Its pending list (new entries queued until merged, read through by every
    // search of the partition) is capped at 64 kB instead of 4 MB (migration 0023): searches while
    // sources were being added took twice as long, and ingestion measured no slower.
    index("context_chunks_app_tsv_idx").using("gin", t.appId, t.tsv).with({ gin_pending_list_limit: 64 }),
  ],
);

// For each item, how many of its chunks hold each term (lexeme of tsv): the document frequencies
// BM25 needs (db/queries/context-search.ts), written (db/queries/context-content.ts) with the chunks in their transaction and deleted with
// them. Kept per item rather than per app, so that two ingestions of one app never wait on each
// other's counters, and a search sums them over the items that are synced: the figures always
// describe exactly the chunks a search can return.
//
// No foreign key: its check, row by row, was a third of writing an item's counts (a 100k-row CSV
// has some 150k terms). The trigger context_items_delete_terms (migration 0021) deletes an item's
// counts with the item, however it is deleted (its app's deletion too).
export const contextItemTerms = pgTable(
  "context_item_terms",
  {
    itemId: uuid("item_id").notNull(),
    appId: uuid("app_id").notNull(),
    term: text("term").notNull(),
    chunks: integer("chunks").notNull(),
  },
  (t) => [
    primaryKey({ name: "context_item_terms_pkey", columns: [t.itemId, t.term] }),
    // A search reads its words' counts in its app, and how many chunks of every app hold them (the
    // length of their lists in the chunks' index), every column in the index (index-only scans).
    index("context_item_terms_term_idx").on(t.term, t.appId, t.itemId, t.chunks),
  ],
);

// The rows of a CSV source, one per data row keyed by its header, for the smart items filter:
// the chunks serve full-text search, these serve field-by-field matching.
export const contextRows = pgTable(
  "context_rows",
  {
    itemId: uuid("item_id")
      .notNull()
      .references(() => contextItems.id, { onDelete: "cascade" }),
    appId: uuid("app_id").notNull(),
    position: integer("position").notNull(),
    data: jsonb("data").$type<Record<string, string>>().notNull(),
    // The row lowered (keys and values), for case-insensitive matching: stored rather than an
    // index expression, so that reading a row to check a condition is a containment test and
    // not a text round trip of the whole row (~4 µs), four times slower when a filter walks a list.
    dataCi: jsonb("data_ci").$type<Record<string, string>>().generatedAlwaysAs(sql`lower(data::text)::jsonb`),
  },
  (t) => [
    primaryKey({ name: "context_rows_pkey", columns: [t.itemId, t.position] }),
    // Smart items filtering matches a column's value case-insensitively: the lowered row is
    // indexed, and db/queries/context-rows.ts asks with containment (@>). With app_id in the same GIN
    // (btree_gin, migration 0012), a search of one app finds its matches alone rather than every
    // app's to filter them out; no btree on app_id is kept besides.
    index("context_rows_app_data_ci_idx").using("gin", t.appId, sql`${t.dataCi} jsonb_path_ops`),
  ],
);
