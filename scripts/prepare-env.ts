import "./load-env";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { migrateDatabase } from "../db/migrate";
import { ensureDatabase, type LocalDb, startLocalPostgres } from "./local-db";

export const DATA_DIR = path.resolve(".data");

// AUTH_SECRET: taken from the environment, else generated once into .data/auth-secret.
export function ensureAuthSecret(): void {
  if (process.env.AUTH_SECRET) return;
  const file = path.join(DATA_DIR, "auth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(DATA_DIR, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  process.env.AUTH_SECRET = fs.readFileSync(file, "utf8").trim();
}

// DATABASE_URL: taken from the environment, else an embedded PostgreSQL in .data/postgres.
export async function ensureDatabaseUrl(): Promise<LocalDb | undefined> {
  let local: LocalDb | undefined;
  if (!process.env.DATABASE_URL) {
    local = await startLocalPostgres(path.join(DATA_DIR, "postgres"), embeddedPgPort());
    await ensureDatabase(local.adminUrl, "builder");
    process.env.DATABASE_URL = local.urlFor("builder");
    console.log(`Embedded PostgreSQL ready: ${process.env.DATABASE_URL}`);
  }
  await migrateDatabase(process.env.DATABASE_URL!);
  return local;
}

// Read when asked, never as the module loads: whoever imports this file may set it first.
function embeddedPgPort(): number {
  return Number(process.env.EMBEDDED_PG_PORT ?? 54329);
}
