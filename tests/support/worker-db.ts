import pg from "pg";
import { afterAll, inject } from "vitest";
import { closeDb } from "../../db/client";
import { applyTestEnv, TEMPLATE_DB } from "./test-env";

// Each test file's worker gets its own database, cloned from the migrated template.
applyTestEnv();
const adminUrl = inject("pgAdminUrl");
const name = `builder_test_${process.env.VITEST_POOL_ID ?? "0"}_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DB}"`);
await admin.end();
const url = new URL(adminUrl);
url.pathname = `/${name}`;
process.env.DATABASE_URL = url.toString();

afterAll(async () => {
  await closeDb();
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});
