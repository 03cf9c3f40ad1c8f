DROP TABLE "rate_limits" CASCADE;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "session_version";