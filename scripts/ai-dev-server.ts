import "./load-env";
import { demoResponder, startOpenAiServer } from "../tests/support/openai-server";

// npm run ai:dev - a local stand-in for a model provider, speaking the OpenAI-compatible API
// (GET /v1/models, POST /v1/chat/completions with and without streaming). Its answers are
// demos, not a model's: a plausible field for the editor's magic field creation, a short text
// for anything else. Point the app at it with the two variables it prints.

async function main() {
  const port = Number(process.env.AI_DEV_PORT ?? 4010);
  // A fixed key, so the lines put in .env keep working across restarts.
  const apiKey = process.env.AI_DEV_KEY ?? "sk-local-dev";

  const server = await startOpenAiServer({
    port,
    apiKey,
    responder: demoResponder,
    record: false,
    onRequest: (r) => console.log(`${new Date().toISOString()} ${r.method} ${r.path}`),
  });
  console.log(`Local model server (demo answers) on ${server.url}`);
  console.log("Put these in .env (or the environment) and restart `npm run dev`:\n");
  console.log(`AI_BASE_URL=${server.url}`);
  console.log(`AI_API_KEY=${server.apiKey}\n`);
  console.log("Ctrl+C stops it.");

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      await server.close();
      process.exit(0);
    });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
