import { PgBoss } from "pg-boss";

// The job queues live in PostgreSQL, in pg-boss's own schema. They are installed with the
// migrations (db/migrate.ts), so a new database, or a test database cloned from a migrated
// template, has them before the first request.

export const JOBS_SCHEMA = "pgboss";

export const QUEUES = {
  /** Mails of the sign-in flows, sent off the request path (verification, reset, codes, email change). */
  authMail: "auth-mail",
  /** Deletes expired codes, counters and sessions; scheduled every 10 minutes. */
  prune: "prune-expired",
  /** Turns a data source into searchable chunks (lib/jobs/context-ingest.ts). */
  contextIngest: "context-ingest",
  /** Imports a CSV file into a space app's entity (lib/app-data/csv-import.ts). */
  csvImport: "csv-import",
} as const;

/**
 * Seconds without a heartbeat after which a running ingestion job counts as lost
 * (JOBS_HEARTBEAT_SECONDS, default 30; pg-boss's floor is 10). Read here, not by lib/env.ts: the
 * queues are installed by the migrations, which run before the app's configuration is read.
 */
export function jobHeartbeatSeconds(): number {
  return secondsFromEnv("JOBS_HEARTBEAT_SECONDS", 30, 10);
}

/**
 * How often a worker supervises the queues: fails the jobs whose heartbeat or time ran out, so
 * they are retried (JOBS_SUPERVISE_SECONDS, default 30).
 */
export function jobSuperviseSeconds(): number {
  return secondsFromEnv("JOBS_SUPERVISE_SECONDS", 30, 1);
}

function secondsFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > 3600) {
    throw new Error(
      `Invalid environment configuration:\n  ${name}: a whole number of seconds from ${min} to 3600`,
    );
  }
  return n;
}

export async function installJobQueues(connectionString: string): Promise<void> {
  const boss = new PgBoss({
    connectionString,
    schema: JOBS_SCHEMA,
    supervise: false,
    schedule: false,
    max: 2,
  });
  boss.on("error", () => {});
  await boss.start();
  try {
    // Mail: retried with backoff (an SMTP server may be down for a while), kept a day.
    await boss.createQueue(QUEUES.authMail, {
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 120,
      deleteAfterSeconds: 24 * 60 * 60,
      notify: true,
    });
    await boss.createQueue(QUEUES.prune, { policy: "singleton", retryLimit: 1 });
    // Ingestion: retried with backoff. A running job's worker confirms it every half heartbeat;
    // one that stops (its worker was killed or lost) is failed by the next supervision and run
    // again, so a dead worker's job waits a heartbeat, not the 15 minutes any job may last.
    // Options change with the code: a queue made by an older version is updated to them.
    const contextIngest = {
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 15 * 60,
      heartbeatSeconds: jobHeartbeatSeconds(),
      deleteAfterSeconds: 7 * 24 * 60 * 60,
      notify: true,
    };
    await boss.createQueue(QUEUES.contextIngest, contextIngest);
    await boss.updateQueue(QUEUES.contextIngest, contextIngest);
    // CSV imports: retried like ingestion; a retry skips the batches already written.
    await boss.createQueue(QUEUES.csvImport, contextIngest);
    await boss.updateQueue(QUEUES.csvImport, contextIngest);
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}
