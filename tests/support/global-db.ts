import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../../db/migrate";
import { adminQuery, startLocalPostgres } from "../../scripts/local-db";
import { assertLocalDatabase, TEST_PG_PORT } from "./test-env";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

// Once per run: a PostgreSQL (embedded, or TEST_DATABASE_URL's server) and a migrated
// template database that every worker clones.
export default async function setup(project: TestProject) {
  let adminUrl: string;
  let stop = async () => {};
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    const local = await startLocalPostgres(path.resolve(".data/test-postgres"), TEST_PG_PORT);
    adminUrl = local.adminUrl;
    stop = local.stop;
  }
  assertLocalDatabase(adminUrl);
  // Per-run names: several runs may share one server (two terminals, or agents at work).
  const template = `builder_template_${process.pid}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${template}"`);
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  await migrateDatabase(templateUrl.toString());
  project.provide("pgAdminUrl", adminUrl);
  project.provide("pgTemplate", template);
  return async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    // Leave the server up while another run still uses it.
    const others = await adminQuery(
      adminUrl,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname LIKE 'builder_%'",
    );
    if (others.rows[0]?.n === 0) await stop();
  };
}
