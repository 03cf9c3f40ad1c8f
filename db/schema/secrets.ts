import { pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { apps } from "./apps";

/**
 * A space app's secrets (API keys its functions use), one row per key. The value is sealed by
 * lib/secrets/crypto.ts (AES-256-GCM, a random IV each, the app and key bound in as associated
 * data); `keyId` names the key it was sealed under, so values sealed under an earlier key still
 * open while keys rotate. Nothing here reads or writes a value in clear.
 */
export const appSecrets = pgTable(
  "app_secrets",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** "<iv>.<ciphertext>.<tag>", base64url. */
    sealedValue: text("sealed_value").notNull(),
    /** The fingerprint of the key it was sealed under (lib/secrets/crypto.ts). */
    keyId: text("key_id").notNull(),
    /** What the secret is and where to find it (the chat's request gives a description). */
    instructions: text("instructions"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.key] })],
);

export type AppSecret = typeof appSecrets.$inferSelect;
