ALTER TABLE "entity_records" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "app_role" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "app_data" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "entity_records" SET "updated_at" = "created_at";--> statement-breakpoint
CREATE INDEX "entity_records_creator_idx" ON "entity_records" USING btree ("app_id","entity","creator_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);