ALTER TABLE "uploads" ADD COLUMN "used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "uploads_unused_run_photos_idx" ON "uploads" USING btree ("created_at") WHERE "uploads"."kind" = 'run_photo' and "uploads"."used_at" is null;--> statement-breakpoint
-- Hand-written: photos uploaded before this migration are kept (counted as used), since which of
-- them a run used was not recorded.
UPDATE "uploads" SET "used_at" = "created_at" WHERE "kind" = 'run_photo';
