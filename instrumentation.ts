// Next calls register() once when a server starts. The job worker runs inside the web server by
// default, so `npm run dev` and `npm start` stay one command each; with WORKER=external it runs
// only as `npm run worker` (docs/architecture.md, "Jobs").
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { env } = await import("./lib/env");
  if (env().WORKER === "external") return;
  const { startWorker } = await import("./lib/jobs/worker");
  await startWorker();
}
