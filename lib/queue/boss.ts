import "server-only";
import { PgBoss } from "pg-boss";
import { JOBS_SCHEMA, jobSuperviseSeconds } from "@/db/job-queues";
import { logError } from "@/lib/log";

// One pg-boss instance per process, on the app's database. Web processes only send jobs; the
// worker (lib/jobs/worker.ts) also runs them, keeps schedules and does pg-boss's maintenance.

type Holder = { boss?: Promise<PgBoss> };
// Survives Next's hot reload in development, like the database pool.
const g = globalThis as { __builderJobs?: Holder };
g.__builderJobs ??= {};
const holder = g.__builderJobs;

/** The process's instance; the first call decides whether it also works (the worker starts first). */
export function boss(opts: { worker?: boolean } = {}): Promise<PgBoss> {
  holder.boss ??= (async () => {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    const instance = new PgBoss({
      connectionString,
      schema: JOBS_SCHEMA,
      // Installed with the migrations; a web process only sends.
      migrate: false,
      supervise: Boolean(opts.worker),
      // Supervision fails the jobs of a dead worker (lost heartbeat) for a retry: a monitoring
      // pass this often (any worker's; they share the queue's last pass time).
      superviseIntervalSeconds: jobSuperviseSeconds(),
      monitorIntervalSeconds: jobSuperviseSeconds(),
      schedule: Boolean(opts.worker),
      useListenNotify: Boolean(opts.worker),
      max: opts.worker ? 4 : 2,
    });
    instance.on("error", (err) => logError("job queue error", { err }));
    await instance.start();
    return instance;
  })();
  return holder.boss;
}

/** Stops this process's instance (tests, shutdown). */
export async function stopBoss(): Promise<void> {
  const running = holder.boss;
  holder.boss = undefined;
  if (running) await (await running).stop({ graceful: false, close: true }).catch(() => {});
}
