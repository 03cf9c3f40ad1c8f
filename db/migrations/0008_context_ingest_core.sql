ALTER TABLE "context_items" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "context_items" ADD COLUMN "usage_job_id" uuid;--> statement-breakpoint
CREATE INDEX "context_items_live_idx" ON "context_items" USING btree ("status_changed_at") WHERE "context_items"."status" in ('unsynced', 'pending', 'running');--> statement-breakpoint
CREATE INDEX "context_rows_data_ci_idx" ON "context_rows" USING gin ((lower("data"::text)::jsonb) jsonb_path_ops);