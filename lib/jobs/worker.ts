import "server-only";
import type { JobResult } from "pg-boss";
import { QUEUES } from "@/db/job-queues";
import { runCsvImportJob } from "@/lib/app-data/csv-import";
import { MAIL_BATCH_SIZE, MAIL_WORKER_LOOPS } from "@/lib/constants";
import { logError, logInfo } from "@/lib/log";
import { boss, stopBoss } from "@/lib/queue/boss";
import type { AuthMailJob } from "@/lib/queue/enqueue";
import type { ContextIngestJob } from "@/lib/queue/enqueue-context";
import type { CsvImportJob } from "@/lib/queue/enqueue-csv-import";
import { runAuthMailJob } from "./auth-mail";
import { runContextIngestJob } from "./context-ingest";
import { pruneExpired } from "./prune";

const PRUNE_CRON = "*/10 * * * *";

/**
 * Runs the queued jobs of this deployment: inside the web server by default (instrumentation.ts),
 * or as `npm run worker` when WORKER=external. Any number of workers may run at once.
 */
export async function startWorker(): Promise<void> {
  const b = await boss({ worker: true });
  // Sign-in mail: a few sends in flight (MAIL_BATCH_SIZE per fetch, MAIL_WORKER_LOOPS loops), each
  // job completed or failed on its own (a failed send is retried alone, never the batch: nothing is
  // sent twice). A full batch means more may wait: the loop fetches again at once, so a burst drains
  // at the mail server's pace; otherwise a job's NOTIFY wakes it, with a poll every second behind
  // (pg-boss's 30 s backstop once left each of a burst's mails waiting half a minute). Fetches take
  // the highest priority first: sign-in codes and links before notices (lib/queue/enqueue.ts).
  await b.work<
    AuthMailJob,
    void,
    {
      batchSize: number;
      perJobResults: true;
      burstWhenBatchFull: true;
      pollingIntervalSeconds: number;
      notifyPollingIntervalSeconds: number;
      localConcurrency: number;
    }
  >(
    QUEUES.authMail,
    {
      batchSize: MAIL_BATCH_SIZE,
      perJobResults: true,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 1,
      localConcurrency: MAIL_WORKER_LOOPS,
    },
    (jobs) =>
      Promise.all(
        jobs.map(async (job): Promise<JobResult> => {
          try {
            await runAuthMailJob(job.data);
            return { id: job.id, status: "completed" };
          } catch (err) {
            logError("auth mail job failed", { kind: job.data.kind, err });
            return {
              id: job.id,
              status: "failed",
              output: { message: String((err as Error)?.message ?? err) },
            };
          }
        }),
      ),
  );
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
  // CSV imports: one at a time per worker process (each parses in the capped worker thread).
  await b.work<
    CsvImportJob,
    void,
    { pollingIntervalSeconds: number; notifyPollingIntervalSeconds: number; includeMetadata: true }
  >(
    QUEUES.csvImport,
    { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1, includeMetadata: true },
    async ([job]) => {
      if (job) await runCsvImportJob(job.data, { finalAttempt: job.retryCount >= job.retryLimit });
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
  for (;;) {
    const [job] = await b.fetch<CsvImportJob>(QUEUES.csvImport, { includeMetadata: true });
    if (!job) break;
    try {
      await runCsvImportJob(job.data, { finalAttempt: job.retryCount >= job.retryLimit });
      await b.complete(QUEUES.csvImport, job.id);
    } catch (err) {
      logError("csv import job failed", { err });
      await b.fail(QUEUES.csvImport, job.id);
    }
    ran++;
  }
  return ran;
}
