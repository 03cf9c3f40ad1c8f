CREATE TABLE "context_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "context_items" ADD COLUMN "file_key" text;--> statement-breakpoint
ALTER TABLE "context_rows" ADD CONSTRAINT "context_rows_item_id_context_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."context_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "context_rows_item_idx" ON "context_rows" USING btree ("item_id","position");--> statement-breakpoint
CREATE INDEX "context_rows_app_idx" ON "context_rows" USING btree ("app_id");