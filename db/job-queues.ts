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
} as const;

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
    // Ingestion: retried with backoff; a job whose worker died is expired and run again.
    await boss.createQueue(QUEUES.contextIngest, {
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 15 * 60,
      deleteAfterSeconds: 7 * 24 * 60 * 60,
      notify: true,
    });
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}
