CREATE TABLE "context_chunks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED
);
--> statement-breakpoint
CREATE TABLE "context_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"size" integer DEFAULT 0 NOT NULL,
	"content" text,
	"external_file_url" text,
	"external_file_id" text,
	"provider_item_id" text,
	"provider" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_synced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "context_chunks" ADD CONSTRAINT "context_chunks_item_id_context_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."context_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "context_items" ADD CONSTRAINT "context_items_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "context_chunks_tsv_idx" ON "context_chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "context_chunks_app_idx" ON "context_chunks" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "context_chunks_item_idx" ON "context_chunks" USING btree ("item_id","position");--> statement-breakpoint
CREATE INDEX "context_items_app_idx" ON "context_items" USING btree ("app_id","created_at");