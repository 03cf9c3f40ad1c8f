import "server-only";
import { QUEUES } from "@/db/job-queues";
import { logError, logInfo } from "@/lib/log";
import { runAuthMailJob } from "./auth-mail";
import { boss, stopBoss } from "./boss";
import { runContextIngestJob } from "./context-ingest";
import type { AuthMailJob } from "./enqueue";
import type { ContextIngestJob } from "./enqueue-context";
import { pruneExpired } from "./prune";

const PRUNE_CRON = "*/10 * * * *";

/**
 * Runs the queued jobs of this deployment: inside the web server by default (instrumentation.ts),
 * or as `npm run worker` when WORKER=external. Any number of workers may run at once.
 */
export async function startWorker(): Promise<void> {
  const b = await boss({ worker: true });
  // One job at a time per fetch: a batch fails and retries as a whole, which would send twice.
  await b.work<AuthMailJob>(QUEUES.authMail, { pollingIntervalSeconds: 2 }, async ([job]) => {
    if (job) await runAuthMailJob(job.data);
  });
  // Ingestion: two jobs at a time per worker process. A queue's NOTIFY wakes an idle worker once
  // per job sent; a worker that finishes a job while others wait asks again within a second
  // (pg-boss's 30 s backstop would leave a burst of sources Pending half a minute each).
  await b.work<
    ContextIngestJob,
    void,
    {
      pollingIntervalSeconds: number;
      notifyPollingIntervalSeconds: number;
      localConcurrency: number;
      includeMetadata: true;
    }
  >(
    QUEUES.contextIngest,
    {
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 1,
      localConcurrency: 2,
      includeMetadata: true,
    },
    async ([job]) => {
      if (job) {
        await runContextIngestJob(job.data, {
          finalAttempt: job.retryCount >= job.retryLimit,
          jobId: job.id,
        });
      }
    },
  );
  await b.work(QUEUES.prune, { pollingIntervalSeconds: 30 }, async () => {
    logInfo("pruned expired rows", await pruneExpired());
  });
  await b.schedule(QUEUES.prune, PRUNE_CRON);
}

export { stopBoss as stopWorker };

/**
 * Runs every job that is due now, in this process, through the same handlers as the worker:
 * for the tests, which read a mail right after the request that queued it.
 */
export async function runDueJobs(): Promise<number> {
  const b = await boss();
  let ran = 0;
  for (;;) {
    const [job] = await b.fetch<AuthMailJob>(QUEUES.authMail);
    if (!job) break;
    try {
      await runAuthMailJob(job.data);
      await b.complete(QUEUES.authMail, job.id);
    } catch (err) {
      logError("auth mail job failed", { err });
      await b.fail(QUEUES.authMail, job.id);
    }
    ran++;
  }
  for (;;) {
    const [job] = await b.fetch<ContextIngestJob>(QUEUES.contextIngest, { includeMetadata: true });
    if (!job) break;
    try {
      await runContextIngestJob(job.data, { finalAttempt: job.retryCount >= job.retryLimit, jobId: job.id });
      await b.complete(QUEUES.contextIngest, job.id);
    } catch (err) {
      logError("context ingest job failed", { err });
      await b.fail(QUEUES.contextIngest, job.id);
    }
    ran++;
  }
  return ran;
}
