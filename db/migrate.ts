import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { installJobQueues } from "./job-queues";

// Any number of instances may start at once: an advisory lock lets one migrate at a time.
const LOCK_ID = 727_001;

export async function migrateDatabase(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SET client_min_messages TO warning");
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
    await migrate(drizzle(client), { migrationsFolder: path.join(process.cwd(), "db/migrations") });
    await installJobQueues(connectionString);
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]).catch(() => {});
    await client.end();
  }
}
