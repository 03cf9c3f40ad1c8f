import { spawn } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { messages } from "../lib/messages";
import { diffLines, foldUnchanged } from "../lib/space/line-diff";
import { launchChromium } from "./chromium";
import type { NextServer } from "./next-server";
import { CHANGES_FILES, fileContent, filePath } from "./space-changes-files";
import { profiled } from "./space-grid-scroll";
import { median, percentile } from "./stats";

// The all-changes dialog of a 200-file version in headless Chromium, against the production
// server, figures only (never pass/fail). The app (bench/space-changes-seed.ts, through the chat's
// services): version 1 adds 200 pages, components and services of about 4 kB, version 2 (a chat
// answer) changes every one of them. Each round, in the page:
//  - the answer's "View changes" is clicked (by the page's own JS, so the clock starts at the click,
//    not at Playwright's round trip) and a MutationObserver notes when the dialog's tree has its
//    200 file items and the first file's diff (data-testid="changes-diff") has its rows; "painted"
//    is the first task after the next animation frame (the frame that shows them has been drawn);
//  - the network part: from the click to the end of the last response the dialog read (one:
//    the version's changed paths with the first file's two sides, GET .../versions/{id}?files=none
//    &sides=first, against=current for the compare dialog), as Resource Timing saw it, and the
//    server's part of it (request sent to first byte); the rest is parsing and rendering;
//  - the same for the Versions dialog's "Compare with current" of version 1 (the 200 files
//    against the current ones), and the dialog closed again (Escape).
// Baselines of the same run, in the same page: the two whole-version fetches alone (with their JSON
// parsed: the version, then its parent, as the dialog read them before it read one file at a time),
// and 200 plain <div> rows plus as many
// table rows as the first file's diff inserted by the page's own JS, to the same "painted".
// Quality, each round: the tree's file items (200), and the first file's rows in the page against
// the rows its diff has (lib/space/line-diff.ts computed here from the seeded files).
// Goal: painted within 100 ms of the click (p50 and p95 printed against it).
// Run by bench/run.ts (BENCH_ONLY=changes); /usr/bin/chromium (or BENCH_CHROMIUM).
// BENCH_CHANGES_ROUNDS (default 15), BENCH_CHANGES_FILES (default 200). BENCH_CHANGES_PROFILE=1 also
// profiles one more opening of each dialog (the main thread's trace events and the JavaScript by
// its own time), printed after the figures.

const PROFILE = process.env.BENCH_CHANGES_PROFILE === "1";
const ROUNDS = Number(process.env.BENCH_CHANGES_ROUNDS ?? 15);
const GOAL_MS = 100;

const log = (line = "") => console.log(line);
const ms = (x: number) => `${x.toFixed(1)} ms`;

type Seeded = {
  email: string;
  password: string;
  appId: string;
  firstVersionId: string;
  versionId: string;
  answerId: string;
};

/** One opening of a dialog, as the page timed it (ms from the click). */
type Opening = {
  /** The tree's items and the first diff's rows in the DOM. */
  dom: number;
  /** The first task after the next frame: drawn. */
  painted: number;
  /** The end of the last response of the version files' requests. */
  network: number;
  /** The requests' waits for their first byte (the server's part), summed. */
  serverWait: number;
  /** The compare dialog: its list of check boxes painted, every file's (0 for the changes dialog). */
  listed: number;
  requests: number;
  /** The responses' bodies, as sent (compressed) and decoded. */
  sentBytes: number;
  bytes: number;
  fileItems: number;
  selectedPath: string;
  diffRows: number;
};

async function seed(databaseUrl: string): Promise<Seeded> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "bench/space-changes-seed.ts"],
      { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, DATABASE_URL: databaseUrl } },
    );
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`space-changes-seed exited with ${code}`)),
    );
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Seeded;
}

/** A button: its CSS selector, and its text when the selector matches others too. */
type Target = { selector: string; text?: string };

/**
 * Clicks `button` in the page and times the dialog `dialog` (its data-testid)
 * until its tree has `files` file items and its diff has rows, then drawn.
 */
function open(page: Page, button: Target, dialog: string, files: number): Promise<Opening> {
  return page.evaluate(
    ({ button, dialog, files }) =>
      new Promise<Opening>((resolve, reject) => {
        const target = [...document.querySelectorAll<HTMLElement>(button.selector)].find(
          (el) => !button.text || el.textContent?.trim() === button.text,
        );
        if (!target) return reject(new Error(`no ${button.selector} ${button.text ?? ""}`));
        performance.clearResourceTimings();
        const parts = () => {
          const box = document.querySelector(`[data-testid="${dialog}"]`);
          const items = box?.querySelectorAll('[role="tree"] [role="treeitem"][data-path]') ?? [];
          const rows = box?.querySelectorAll('[data-testid="changes-diff"] tbody tr') ?? [];
          return { box, items, rows };
        };
        let started = 0;
        const finish = (dom: number) => {
          requestAnimationFrame(() =>
            setTimeout(() => {
              const painted = performance.now() - started;
              const { box, items, rows } = parts();
              const boxes = () => box?.querySelectorAll('ul input[type="checkbox"]').length ?? 0;
              const fetches = performance
                .getEntriesByType("resource")
                .filter((e) =>
                  /\/versions\/[^/]+(\/file)?$/.test(new URL(e.name).pathname),
                ) as PerformanceResourceTiming[];
              const opening = {
                dom,
                painted,
                network: Math.max(0, ...fetches.map((e) => e.responseEnd - started)),
                serverWait: fetches.reduce((sum, e) => sum + (e.responseStart - e.requestStart), 0),
                requests: fetches.length,
                sentBytes: fetches.reduce((sum, e) => sum + e.encodedBodySize, 0),
                bytes: fetches.reduce((sum, e) => sum + e.decodedBodySize, 0),
                fileItems: items.length,
                selectedPath:
                  box?.querySelector('[role="treeitem"][aria-selected="true"]')?.getAttribute("data-path") ??
                  "",
                diffRows: rows.length,
                listed: 0,
              };
              // The compare dialog's list of check boxes comes a render later: its time is noted too.
              if (dialog !== "compare-dialog") return resolve(opening);
              const listed = () =>
                requestAnimationFrame(() =>
                  setTimeout(() => resolve({ ...opening, listed: performance.now() - started }), 0),
                );
              if (boxes() >= files) return listed();
              const watch = new MutationObserver(() => {
                if (boxes() < files) return;
                watch.disconnect();
                listed();
              });
              watch.observe(box!, { childList: true, subtree: true });
            }, 0),
          );
        };
        const observer = new MutationObserver(() => {
          const { items, rows } = parts();
          if (items.length >= files && rows.length > 0) {
            observer.disconnect();
            finish(performance.now() - started);
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
        started = performance.now();
        target.click();
      }),
    { button, dialog, files },
  );
}

/** The baseline fetches: the version's files, then its parent's (JSON parsed), as the dialog used to. */
function fetchAlone(page: Page, appId: string, versionId: string): Promise<number> {
  return page.evaluate(
    async ({ appId, versionId }) => {
      const started = performance.now();
      const get = async (id: string) =>
        (await (await fetch(`/api/apps/${appId}/versions/${id}`, { credentials: "same-origin" })).json()) as {
          version: { parentId: string | null };
        };
      const detail = await get(versionId);
      if (detail.version.parentId) await get(detail.version.parentId);
      return performance.now() - started;
    },
    { appId, versionId },
  );
}

/** The baseline render: `items` plain div rows and `rows` table rows inserted by the page, to drawn. */
function plainRows(page: Page, items: string[], rows: string[]): Promise<number> {
  return page.evaluate(
    ({ items, rows }) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        const box = document.createElement("div");
        box.style.cssText =
          "position:fixed;inset:40px;z-index:99999;background:white;display:grid;grid-template-columns:16rem 1fr;overflow:hidden";
        const list = document.createElement("div");
        list.style.cssText = "overflow:auto;font:14px sans-serif";
        for (const text of items) {
          const div = document.createElement("div");
          div.textContent = text;
          list.append(div);
        }
        const table = document.createElement("table");
        table.style.cssText = "font:12px monospace;white-space:pre";
        const body = document.createElement("tbody");
        for (const text of rows) {
          const tr = document.createElement("tr");
          const td = document.createElement("td");
          td.textContent = text;
          tr.append(td);
          body.append(tr);
        }
        table.append(body);
        box.append(list, table);
        document.body.append(box);
        requestAnimationFrame(() =>
          setTimeout(() => {
            resolve(performance.now() - started);
            box.remove();
          }, 0),
        );
      }),
    { items, rows },
  );
}

/** The Versions dialog, open with version 1's Compare with current shown. */
async function openVersions(page: Page) {
  await page.getByRole("button", { name: messages.versionsButton }).first().click();
  await page
    .getByTestId("versions-dialog")
    .locator('[data-version-number="1"]')
    .getByRole("button", { name: messages.compareWithCurrent })
    .waitFor();
}

async function closeDialog(page: Page, dialog: string) {
  await page.keyboard.press("Escape");
  await page.getByTestId(dialog).waitFor({ state: "detached" });
}

/** The rows the first file's diff has: what the page must show. */
function expectedRows(path: string, compare: boolean): number {
  const i = Array.from({ length: CHANGES_FILES }, (_, n) => n).find((n) => filePath(n) === path);
  if (i === undefined) return -1;
  // The changes dialog: the parent (before) against the version; compare: the current files
  // (version 2, edited) against version 1's.
  const [before, after] = compare
    ? [fileContent(i, true), fileContent(i, false)]
    : [fileContent(i, false), fileContent(i, true)];
  return foldUnchanged(diffLines(before, after)).length;
}

function report(label: string, runs: Opening[], compare: boolean, fetches: number[], plain: number[]) {
  const painted = runs.map((r) => r.painted);
  const dom = runs.map((r) => r.dom);
  const network = runs.map((r) => r.network);
  const after = runs.map((r) => r.painted - r.network);
  const p95 = percentile(painted, 95);
  log(
    `${label}: click to tree and first diff painted, ${runs.length} rounds: p50 ${ms(median(painted))}, p95 ${ms(p95)}, ` +
      `max ${ms(Math.max(...painted))} (goal ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS ? "met" : median(painted) <= GOAL_MS ? "met at p50, missed at p95" : "missed"}); ` +
      `in the DOM p50 ${ms(median(dom))}`,
  );
  log(
    `  of which the network (click to the last response's end, ${runs[0]!.requests} requests, ${(runs[0]!.bytes / 1024).toFixed(0)} kB of JSON, ${(runs[0]!.sentBytes / 1024).toFixed(0)} kB sent): p50 ${ms(median(network))}, p95 ${ms(percentile(network, 95))}; ` +
      `after it (JSON, changes, React render, layout, paint): p50 ${ms(median(after))}, p95 ${ms(percentile(after, 95))}; ` +
      `the server's part (each request sent to its first byte, summed) p50 ${ms(median(runs.map((r) => r.serverWait)))}`,
  );
  log(
    `  ×${(median(painted) / median(fetches)).toFixed(2)} the fetches alone (p50), ×${(median(after) / median(plain)).toFixed(2)} the plain rows for the part after the network (p50)`,
  );
  if (compare) {
    log(
      `  the merge list's ${CHANGES_FILES} check boxes painted a render later: p50 ${ms(median(runs.map((r) => r.listed)))}, p95 ${ms(
        percentile(
          runs.map((r) => r.listed),
          95,
        ),
      )} from the click`,
    );
  }
  const bad = runs.filter(
    (r) => r.fileItems !== CHANGES_FILES || r.diffRows !== expectedRows(r.selectedPath, compare),
  );
  const first = runs[0]!;
  log(
    `  quality: tree file items ${first.fileItems} of ${CHANGES_FILES}; first file ${first.selectedPath}: ${first.diffRows} rows in the page, ` +
      `${expectedRows(first.selectedPath, compare)} in its diff; rounds off: ${bad.length} of ${runs.length}`,
  );
}

export async function runChangesBench(
  start: (extra: Record<string, string>) => Promise<NextServer>,
  databaseUrl: string,
): Promise<void> {
  log(`bench (all-changes dialog): a version changing ${CHANGES_FILES} files, opened in headless Chromium`);
  const seeded = await seed(databaseUrl);
  const server = await start({});
  // The app's own address (APP_URL names localhost): its sign-in checks where requests come from.
  const base = server.url.replace("127.0.0.1", "localhost");
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/login`);
    await page.getByLabel("Email", { exact: true }).fill(seeded.email);
    await page.getByLabel("Password", { exact: true }).fill(seeded.password);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL(/\/home$/);
    await page.goto(`${base}/build/app/${seeded.appId}`);
    const viewChanges = {
      selector: `article[data-message-id="${seeded.answerId}"] [data-testid="message-view-changes"]`,
    };
    await page.locator(viewChanges.selector).waitFor({ timeout: 120_000 });
    // tsx names the page's functions through a helper the page has not: given here.
    await page.evaluate("globalThis.__name = (f) => f");

    // A first opening warms the server's and the page's code paths; not counted.
    await open(page, viewChanges, "changes-dialog", CHANGES_FILES);
    await closeDialog(page, "changes-dialog");

    const changes: Opening[] = [];
    const compares: Opening[] = [];
    const fetches: number[] = [];
    const plain: number[] = [];
    const compareButton = {
      selector: '[data-testid="versions-dialog"] [data-version-number="1"] button',
      text: messages.compareWithCurrent,
    };
    for (let round = 0; round < ROUNDS; round++) {
      changes.push(await open(page, viewChanges, "changes-dialog", CHANGES_FILES));
      const { selectedPath, diffRows } = changes.at(-1)!;
      await closeDialog(page, "changes-dialog");
      fetches.push(await fetchAlone(page, seeded.appId, seeded.versionId));
      const rows = Array.from(
        { length: diffRows },
        (_, i) => `  <div className="p-2">line ${i} of ${selectedPath}</div>`,
      );
      const items = Array.from({ length: CHANGES_FILES }, (_, i) => filePath(i).split("/")[1]!);
      plain.push(await plainRows(page, items, rows));

      await openVersions(page);
      compares.push(await open(page, compareButton, "compare-dialog", CHANGES_FILES));
      await closeDialog(page, "compare-dialog");
    }
    log(
      `baselines: the two fetches alone (JSON parsed) p50 ${ms(median(fetches))}, p95 ${ms(percentile(fetches, 95))}; ` +
        `${CHANGES_FILES} plain div rows and the diff's rows inserted by the page, to painted, p50 ${ms(median(plain))}, p95 ${ms(percentile(plain, 95))}`,
    );
    report("View changes (version 2 against its parent)", changes, false, fetches, plain);
    report("Compare with current (version 1 against the current files)", compares, true, fetches, plain);
    if (PROFILE) {
      const once = await profiled(
        browser,
        page,
        "View changes",
        () => open(page, viewChanges, "changes-dialog", CHANGES_FILES),
        true,
      );
      log(`  (that opening: DOM ${ms(once.dom)}, painted ${ms(once.painted)}, network ${ms(once.network)})`);
      await closeDialog(page, "changes-dialog");
      await openVersions(page);
      const compare = await profiled(
        browser,
        page,
        "Compare with current",
        () => open(page, compareButton, "compare-dialog", CHANGES_FILES),
        true,
      );
      log(
        `  (that opening: DOM ${ms(compare.dom)}, painted ${ms(compare.painted)}, network ${ms(compare.network)})`,
      );
      await closeDialog(page, "compare-dialog");
    }
  } finally {
    await browser?.close();
    await server.stop();
  }
}
