import pg from "pg";
import { afterAll, inject } from "vitest";
import { closeDb } from "../../db/client";
import { stopBoss } from "../../lib/queue/boss";
import { applyTestEnv } from "./test-env";

// Each test file's worker gets its own database, cloned from the migrated template.
applyTestEnv();
const adminUrl = inject("pgAdminUrl");
const template = inject("pgTemplate");
const name = `builder_test_${process.env.VITEST_POOL_ID ?? "0"}_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
await admin.end();
const url = new URL(adminUrl);
url.pathname = `/${name}`;
process.env.DATABASE_URL = url.toString();

afterAll(async () => {
  await stopBoss();
  await closeDb();
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});
