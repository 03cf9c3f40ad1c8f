CREATE TABLE "app_memberships" (
	"app_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text DEFAULT 'gumroad' NOT NULL,
	"product_id" text NOT NULL,
	"status" text NOT NULL,
	"sale_id" text,
	"subscription_id" text,
	"verified_at" timestamp with time zone NOT NULL,
	"recheck_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_memberships_app_id_user_id_pk" PRIMARY KEY("app_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "app_payment_connections" (
	"app_id" uuid PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'gumroad' NOT NULL,
	"access_token" text NOT NULL,
	"product_id" text NOT NULL,
	"product_name" text NOT NULL,
	"product_url" text,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_memberships" ADD CONSTRAINT "app_memberships_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_memberships" ADD CONSTRAINT "app_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_payment_connections" ADD CONSTRAINT "app_payment_connections_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_memberships_user_idx" ON "app_memberships" USING btree ("user_id");