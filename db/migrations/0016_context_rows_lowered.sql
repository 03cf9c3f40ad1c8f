-- context_rows keeps the lowered row (data_ci) instead of the GIN computing lower(data::text)::jsonb:
-- checking a row for a condition outside the index (walking a list in order, rechecking an index
-- match) is then a containment test, not a text round trip of the whole row. See db/schema/context.ts.
DROP INDEX "context_rows_app_data_ci_idx";--> statement-breakpoint
ALTER TABLE "context_rows" ADD COLUMN "data_ci" jsonb GENERATED ALWAYS AS (lower(data::text)::jsonb) STORED;--> statement-breakpoint
CREATE INDEX "context_rows_app_data_ci_idx" ON "context_rows" USING gin ("app_id","data_ci" jsonb_path_ops);
