import path from "node:path";
import { closeDb } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { adminQuery, type LocalDb, startLocalPostgres } from "../scripts/local-db";

// The bench's embedded PostgreSQL (the same port as bench/run.ts's): a benchmark that runs on its
// own gets a fresh, migrated database of its own name, dropped afterwards; under DATABASE_URL
// (bench/run.ts sets it, or the caller) it uses that database as it is.
const PG_PORT = 54359;

/** Runs `body` against DATABASE_URL, or a scratch database named `name` when none is set. */
export async function withScratchDb(name: string, body: () => Promise<void>): Promise<void> {
  let local: LocalDb | undefined;
  if (!process.env.DATABASE_URL) {
    local = await startLocalPostgres(path.resolve(".data/bench-postgres"), PG_PORT);
    await adminQuery(local.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await adminQuery(local.adminUrl, `CREATE DATABASE "${name}"`);
    process.env.DATABASE_URL = local.urlFor(name);
    await migrateDatabase(process.env.DATABASE_URL);
  }
  try {
    await body();
  } finally {
    await closeDb();
    if (local) {
      await adminQuery(local.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await local.stop();
    }
  }
}
