import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

// An app of a builder. Its editable fields (texts, fields, instructions, ...) live in `content`,
// validated by lib/apps/schemas.ts; `header` is kept beside it for lists. Every save names the
// `revision` it was based on, and a save based on an older one is refused (409): see
// lib/apps/save-app.ts.
export const apps = pgTable(
  "apps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerAccountId: uuid("owner_account_id")
      .notNull()
      .references((): AnyPgColumn => accounts.accountId, { onDelete: "cascade" }),
    type: text("type", { enum: ["tool", "generated", "space"] })
      .notNull()
      .default("tool"),
    status: text("status", { enum: ["active", "draft"] })
      .notNull()
      .default("draft"),
    header: text("header").notNull().default(""),
    content: jsonb("content").notNull().default({}),
    revision: integer("revision").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("apps_owner_idx").on(t.ownerAccountId)],
);

export type App = typeof apps.$inferSelect;

// The tools of a generated app, each with its own texts, fields and instructions (`content`).
export const tools = pgTable(
  "tools",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    title: text("title").notNull().default(""),
    /** Letters, numbers and dashes; unique in its app whatever the case. */
    path: text("path").notNull(),
    imageUrl: text("image_url"),
    status: text("status", { enum: ["active", "draft"] })
      .notNull()
      .default("draft"),
    position: integer("position").notNull().default(0),
    content: jsonb("content").notNull().default({}),
    revision: integer("revision").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("tools_app_path_idx").on(t.appId, sql`lower(${t.path})`),
    index("tools_app_idx").on(t.appId),
  ],
);

export type Tool = typeof tools.$inferSelect;

// App settings and app style: "saved as separate records", each with its revision.
export const appSettings = pgTable("app_settings", {
  appId: uuid("app_id")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  settings: jsonb("settings").notNull().default({}),
  revision: integer("revision").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const appStyles = pgTable("app_styles", {
  appId: uuid("app_id")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  style: jsonb("style").notNull().default({}),
  revision: integer("revision").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// Every stored object of an app (logo, background, option icons, tool thumbnails, and the
// photos its end users upload for runs), so deleting the app or the image deletes the object too.
export const uploads = pgTable(
  "uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    accountId: uuid("account_id").notNull(),
    kind: text("kind", { enum: ["logo", "background", "option", "thumb", "run_photo"] }).notNull(),
    toolId: uuid("tool_id"),
    /** The storage key, e.g. accounts/{account}/apps/{app}/options/{id}.png. */
    key: text("key").notNull().unique(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * A run photo: when a run first used it (the run keeps its address among its inputs, shown
     * in analytics). One never used is deleted a day after its upload (lib/jobs/prune.ts).
     */
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("uploads_app_idx").on(t.appId),
    // The prune job's search: run photos no run used, oldest first.
    index("uploads_unused_run_photos_idx")
      .on(t.createdAt)
      .where(sql`${t.kind} = 'run_photo' and ${t.usedAt} is null`),
  ],
);

export type Upload = typeof uploads.$inferSelect;

// A claim invitation: the owner of a published app invites a customer to take it over. The
// link carries the row's id and a MAC of it (never stored), and works once.
export const appClaims = pgTable(
  "app_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    createdByAccountId: uuid("created_by_account_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    usedByAccountId: uuid("used_by_account_id"),
  },
  (t) => [index("app_claims_app_idx").on(t.appId)],
);

export type AppClaim = typeof appClaims.$inferSelect;
