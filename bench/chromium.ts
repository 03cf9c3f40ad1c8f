import { type Browser, chromium } from "playwright-core";

// The benches' headless Chromium: Debian's /usr/bin/chromium (or BENCH_CHROMIUM), launched with the
// flags the e2e tests use (playwright.config.ts).
const CHROMIUM = process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
