CREATE TABLE "app_files" (
	"app_id" uuid NOT NULL,
	"path" text NOT NULL,
	"blob_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_files_app_id_path_pk" PRIMARY KEY("app_id","path")
);
--> statement-breakpoint
CREATE TABLE "chat_assistants" (
	"app_id" uuid PRIMARY KEY NOT NULL,
	"chat_app_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_assistants_chat_app_id_unique" UNIQUE("chat_app_id")
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"role" text NOT NULL,
	"kind" text DEFAULT 'message' NOT NULL,
	"status" text DEFAULT 'complete' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"usage" jsonb,
	"error" text,
	"version_id" uuid,
	"base_version_id" uuid,
	"system_action" jsonb,
	"discuss_mode" boolean DEFAULT false NOT NULL,
	"context_files" jsonb,
	"context_metadata" jsonb,
	"author_account_id" uuid,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"score" integer NOT NULL,
	"feedback" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_message_id_unique" UNIQUE("message_id"),
	CONSTRAINT "ratings_score_range" CHECK ("ratings"."score" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "space_blobs" (
	"app_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"content" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "space_blobs_app_id_hash_pk" PRIMARY KEY("app_id","hash")
);
--> statement-breakpoint
CREATE TABLE "space_heads" (
	"app_id" uuid PRIMARY KEY NOT NULL,
	"version_id" uuid,
	"revision" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_files" (
	"version_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"path" text NOT NULL,
	"blob_hash" text,
	"change" text,
	CONSTRAINT "version_files_version_id_path_pk" PRIMARY KEY("version_id","path")
);
--> statement-breakpoint
CREATE TABLE "versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"parent_id" uuid,
	"message_id" uuid,
	"kind" text NOT NULL,
	"restored_from_id" uuid,
	"user_request" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"snapshot_distance" integer NOT NULL,
	"file_count" integer NOT NULL,
	"created_by_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_files" ADD CONSTRAINT "app_files_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_assistants" ADD CONSTRAINT "chat_assistants_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "space_blobs" ADD CONSTRAINT "space_blobs_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "space_heads" ADD CONSTRAINT "space_heads_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_files" ADD CONSTRAINT "version_files_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_app_seq_idx" ON "chat_messages" USING btree ("app_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_one_streaming_idx" ON "chat_messages" USING btree ("app_id") WHERE "chat_messages"."status" = 'streaming' and "chat_messages"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "ratings_app_idx" ON "ratings" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "version_files_app_path_idx" ON "version_files" USING btree ("app_id","path") WHERE "version_files"."change" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "versions_app_number_idx" ON "versions" USING btree ("app_id","number");--> statement-breakpoint
CREATE INDEX "versions_message_idx" ON "versions" USING btree ("message_id");