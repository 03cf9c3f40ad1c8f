import "./load-env";
import { spawn } from "node:child_process";
import { ensureAuthSecret, ensureDatabaseUrl } from "./prepare-env";

// npm run dev - database, secret, migrations, then `next dev`.
async function main() {
  ensureAuthSecret();
  const local = await ensureDatabaseUrl();
  const port = process.env.PORT ?? "3000";
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  process.env.APP_URL ??= `http://localhost:${port}`;
  if (!process.env.SMTP_URL) console.log(`Mail outbox (no SMTP_URL set): ${process.env.APP_URL}/dev/outbox`);

  const next = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/server.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: port },
  });
  process.on("SIGINT", () => next.kill("SIGINT"));
  process.on("SIGTERM", () => next.kill("SIGTERM"));
  next.on("exit", async (code) => {
    await local?.stop().catch(() => {});
    process.exit(code ?? 0);
  });
}
void main();
