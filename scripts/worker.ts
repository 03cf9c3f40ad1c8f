import "./load-env";
import { ensureDatabaseUrl } from "./prepare-env";

// npm run worker - the job worker as its own process (mails of the sign-in flows, pruning), for
// deployments that run the web servers with WORKER=external. Any number may run at once.
// npm runs it with `--conditions=react-server`, as Next runs server code: the app's server-only
// modules refuse to load anywhere else.
async function main() {
  const local = await ensureDatabaseUrl();
  const { startWorker, stopWorker } = await import("../lib/jobs/worker");
  await startWorker();
  console.log("Worker running");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(
      signal,
      () =>
        void stopWorker()
          .then(() => local?.stop())
          .then(() => process.exit(0)),
    );
  }
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
