import { defineConfig, devices } from "@playwright/test";

// Run through `npm run test:e2e` (scripts/e2e.ts), which builds and starts the app on port
// 3200 with its own database and SMTP capture, then calls `playwright test` with this file.
// Playwright never downloads a browser: it drives Debian's Chromium (`apt-get install chromium`).

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: ".data/e2e-results",
  // Two cores: the server, PostgreSQL and two browsers already share them.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // In CI a failed test runs once more; scripts/e2e.ts names every flaky one at the end of its
  // output (docs/testing-and-ci.md).
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report lets scripts/e2e.ts repeat the failed tests at the very end of its output.
  reporter: [["list"], ["json", { outputFile: ".data/e2e-report.json" }]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://localhost:3200",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        // The browsers draw every frame in software here: spinners, skeletons and transitions
        // cost the suite about a third of its CPU (measured on the editor specs). Pages honour
        // the reduced-motion preference (app/globals.css), so they are tested without motion;
        // tests/e2e/a11y.spec.ts opens pages with motion on as well.
        reducedMotion: "reduce",
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
  ],
});
