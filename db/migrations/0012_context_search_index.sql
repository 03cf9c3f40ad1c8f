-- Hand-written (drizzle has no extensions): btree_gin gives uuid a GIN operator class, so app_id
-- can sit in the chunks' GIN beside tsv (db/schema/context.ts). It ships with PostgreSQL's contrib
-- modules (the embedded server's too) and is a trusted extension: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "context_chunks_app_tsv_idx" ON "context_chunks" USING gin ("app_id","tsv");--> statement-breakpoint
DROP INDEX "context_chunks_tsv_idx";--> statement-breakpoint
DROP INDEX "context_chunks_app_idx";
