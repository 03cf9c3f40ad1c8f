import "./load-env";
import { spawn } from "node:child_process";
import { ensureDatabaseUrl } from "./prepare-env";

// npm start - production server (after `npm run build`). AUTH_SECRET and APP_URL must be set;
// without DATABASE_URL it still uses the embedded PostgreSQL, which suits a single machine.
async function main() {
  if (!process.env.AUTH_SECRET) {
    console.error(
      "AUTH_SECRET is required in production: set it to 32+ random characters (see .env.example).",
    );
    process.exit(1);
  }
  const local = await ensureDatabaseUrl();
  const port = process.env.PORT ?? "3000";
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  const next = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/server.ts"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", PORT: port },
  });
  process.on("SIGINT", () => next.kill("SIGINT"));
  process.on("SIGTERM", () => next.kill("SIGTERM"));
  next.on("exit", async (code) => {
    await local?.stop().catch(() => {});
    process.exit(code ?? 0);
  });
}
void main();
