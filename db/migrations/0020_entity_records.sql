CREATE TABLE "entity_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"entity" text NOT NULL,
	"creator_id" uuid,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "entity_records" ADD CONSTRAINT "entity_records_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entity_records_list_idx" ON "entity_records" USING btree ("app_id","entity","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);