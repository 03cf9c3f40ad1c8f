CREATE TABLE "app_functions" (
	"app_id" uuid NOT NULL,
	"name" text NOT NULL,
	"file_name" text NOT NULL,
	"code" text,
	"code_hash" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"deployed_at" timestamp with time zone,
	"deployed_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_functions_app_id_name_pk" PRIMARY KEY("app_id","name")
);
--> statement-breakpoint
ALTER TABLE "app_functions" ADD CONSTRAINT "app_functions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_functions" ADD CONSTRAINT "app_functions_deployed_by_users_id_fk" FOREIGN KEY ("deployed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;