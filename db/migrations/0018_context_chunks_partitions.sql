-- Hand-written (drizzle has no partitioned tables); see db/schema/context.ts.
-- context_chunks becomes 8 hash partitions by item_id. A search takes the app's first
-- CHUNK_CANDIDATES_MAX matches (db/queries/context.ts); a bitmap scan of one GIN index builds every
-- match before it returns the first, so a common word cost as much as reading its whole posting
-- list (p99 38 ms at 1M chunks). Over partitions the scan stops at the partition that completes the
-- candidates: most queries read one or two eighths of the lists (docs/data-sources.md, "Data sources:
-- retrieval (BM25)"). An item's chunks all live in one partition (its writes and deletes touch one
-- table and one smaller index).
CREATE TABLE "context_chunks_partitioned" (
	"item_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"tsv" tsvector
) PARTITION BY HASH ("item_id");--> statement-breakpoint
CREATE TABLE "context_chunks_p0" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 0) WITH (toast_tuple_target = 8160);--> statement-breakpoint
CREATE TABLE "context_chunks_p1" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 1) WITH (toast_tuple_target = 8160);--> statement-breakpoint
CREATE TABLE "context_chunks_p2" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 2) WITH (toast_tuple_target = 8160);--> statement-breakpoint
CREATE TABLE "context_chunks_p3" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 3) WITH (toast_tuple_target = 8160);--> statement-breakpoint
CREATE TABLE "context_chunks_p4" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 4) WITH (toast_tuple_target = 8160);--> statement-breakpoint
CREATE TABLE "context_chunks_p5" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 5) WITH (toast_tuple_target = 8160);--> statement-breakpoint
CREATE TABLE "context_chunks_p6" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 6) WITH (toast_tuple_target = 8160);--> statement-breakpoint
CREATE TABLE "context_chunks_p7" PARTITION OF "context_chunks_partitioned" FOR VALUES WITH (MODULUS 8, REMAINDER 7) WITH (toast_tuple_target = 8160);--> statement-breakpoint
INSERT INTO "context_chunks_partitioned" ("item_id", "app_id", "position", "text", "tsv")
  SELECT "item_id", "app_id", "position", "text", "tsv" FROM "context_chunks";--> statement-breakpoint
DROP TABLE "context_chunks";--> statement-breakpoint
ALTER TABLE "context_chunks_partitioned" RENAME TO "context_chunks";--> statement-breakpoint
ALTER TABLE "context_chunks" ADD CONSTRAINT "context_chunks_pkey" PRIMARY KEY ("item_id", "position");--> statement-breakpoint
ALTER TABLE "context_chunks" ADD CONSTRAINT "context_chunks_item_id_context_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."context_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "context_chunks_app_tsv_idx" ON "context_chunks" USING gin ("app_id", "tsv");--> statement-breakpoint
-- The trigger of migrations 0009 and 0017 (to_tsvector('app_search', text) unless the writer
-- brought it), on the partitioned table: PostgreSQL gives each partition its copy.
CREATE TRIGGER "context_chunks_tsv" BEFORE INSERT OR UPDATE ON "context_chunks"
  FOR EACH ROW EXECUTE FUNCTION "context_chunks_tsv"();
