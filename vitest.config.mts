import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  // Next resolves server-only to an empty module on the server; so do the tests.
  "server-only": path.resolve(import.meta.dirname, "tests/support/empty.ts"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default on two cores is one worker; integration tests mostly wait on PostgreSQL
    // (its own process), so three files at a time keep both cores busy. Each file has its own
    // database (tests/support/worker-db.ts), so files never see each other's rows.
    maxWorkers: 3,
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts?(x)"], environment: "node" },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/global-db.ts"],
          // next-auth's ESM imports "next/server" without an extension, which Node's own
          // resolver refuses; inlined, Vite resolves it and the Auth.js route runs in-process.
          server: { deps: { inline: ["next-auth"] } },
          setupFiles: ["tests/support/worker-db.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
