import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../../db/migrate";
import { startLocalPostgres } from "../../scripts/local-db";
import { assertLocalDatabase, TEMPLATE_DB, TEST_PG_PORT } from "./test-env";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
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
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  await admin.end();
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  await migrateDatabase(templateUrl.toString());
  project.provide("pgAdminUrl", adminUrl);
  return stop;
}
