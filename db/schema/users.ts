import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { apps } from "./apps";

// One table for everybody who signs in. tenant_id null = a builder of the platform;
// otherwise the app whose end user this is. Emails are unique per tenant.
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").references((): AnyPgColumn => apps.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    passwordHash: text("password_hash"),
    name: text("name"),
    googleSub: text("google_sub"),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** An end user's role in their app (the "admin" access level): "user" or "admin". */
    appRole: text("app_role").$type<"user" | "admin">().notNull().default("user"),
    /** An end user's extra fields, as the app's User entity declares them. */
    appData: jsonb("app_data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("users_tenant_email_uq").on(t.tenantId, t.email).nullsNotDistinct()],
);

export type User = typeof users.$inferSelect;

// One row per signed-in browser or API client. Every session JWT (cookie or bearer) carries the
// row's id, and every request checks it: logout, "sign out everywhere", a password reset or a
// disable end a session at once, and no refresh outlives expires_at (the absolute lifetime).
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // Touched at most every few minutes: the idle timeout counts from here.
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export type SessionRow = typeof sessions.$inferSelect;

export const authCodePurposes = [
  "verify_email",
  "reset_password",
  "change_email",
  "magic_code",
  "custom_token",
] as const;
export type AuthCodePurpose = (typeof authCodePurposes)[number];

// Single-use codes and links. Only hashes are stored: a database leak reveals no usable link.
export const authCodes = pgTable(
  "auth_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    purpose: text("purpose", { enum: authCodePurposes }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id").references((): AnyPgColumn => apps.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    // Hash of the emailed link token.
    tokenHash: text("token_hash").notNull().unique(),
    // Hash of the 6-digit code, for magic codes only.
    codeHash: text("code_hash"),
    newEmail: text("new_email"),
    continueUrl: text("continue_url"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auth_codes_lookup_idx").on(t.purpose, t.email, t.createdAt)],
);

export type AuthCode = typeof authCodes.$inferSelect;
