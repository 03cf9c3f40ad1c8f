DROP INDEX "context_chunks_app_tsv_idx";--> statement-breakpoint
CREATE INDEX "context_chunks_app_tsv_idx" ON "context_chunks" USING gin ("app_id","tsv") WITH (gin_pending_list_limit=64);