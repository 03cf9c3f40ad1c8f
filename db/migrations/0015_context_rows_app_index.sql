-- The rows' GIN gains app_id (btree_gin, migration 0012) and replaces the btree on app_id.
CREATE INDEX "context_rows_app_data_ci_idx" ON "context_rows" USING gin ("app_id",(lower("data"::text)::jsonb) jsonb_path_ops);--> statement-breakpoint
DROP INDEX "context_rows_data_ci_idx";--> statement-breakpoint
DROP INDEX "context_rows_app_idx";
