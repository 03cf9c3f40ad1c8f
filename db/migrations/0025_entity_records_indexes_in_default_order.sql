DROP INDEX "entity_records_list_idx";--> statement-breakpoint
DROP INDEX "entity_records_creator_idx";--> statement-breakpoint
CREATE INDEX "entity_records_updated_idx" ON "entity_records" USING btree ("app_id","entity","updated_at","id");--> statement-breakpoint
CREATE INDEX "entity_records_list_idx" ON "entity_records" USING btree ("app_id","entity","created_at","id");--> statement-breakpoint
CREATE INDEX "entity_records_creator_idx" ON "entity_records" USING btree ("app_id","entity","creator_id","created_at","id");