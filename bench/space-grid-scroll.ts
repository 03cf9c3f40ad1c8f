import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { messages } from "../lib/messages";
import { createApp, createBuilder } from "../tests/e2e/support/db";
import { seedVersion } from "../tests/e2e/support/space";
import { launchChromium } from "./chromium";
import type { NextServer } from "./next-server";
import { median, percentile } from "./stats";

// Scrolling the Database panel's records grid of an entity of 100,000 records in headless
// Chromium, against the production server, figures only (never pass/fail):
//  1. continuous scrolling: the grid's scrollTop moved a step per animation frame, from the top
//     for SCROLL_ROWS rows; the grid loads the next page (100 rows) as it nears the end of what it
//     has, so the run scrolls as fast as pages come (a frame at the end of the loaded rows waits
//     on the loading row);
//  2. jump scrolling: a jump per frame to a random place in the loaded rows;
//  3. the baseline of the same run: a plain div of the same height (a block of text per 40 px),
//     scrolled by the same steps; the grid's frame times as ratios to it.
// Frame time: the deltas of requestAnimationFrame, p50, p95, max (goal p95 ≤ 16.7 ms).
// Quality, checked each frame: the rows in view that are loaded must be in the page with their
// text (a blank one is counted), and the rows in the page stay a few screens' worth (the virtual
// list: never the loaded thousands). Also the server's side: the count of 100,000 records (it is
// in the section's header) and the page requests' times as the browser saw them.
// Run by bench/run.ts (BENCH_ONLY=grid) with the production server; /usr/bin/chromium (or
// BENCH_CHROMIUM). BENCH_GRID_ROWS (records, default 100000), BENCH_GRID_SCROLL_ROWS (default 5000).
// BENCH_GRID_PROFILE=1 also profiles both runs (where the main thread's time goes: the trace's
// events and the JavaScript functions by their own time), printed after the figures.

const RECORDS = Number(process.env.BENCH_GRID_ROWS ?? 100_000);
const SCROLL_ROWS = Number(process.env.BENCH_GRID_SCROLL_ROWS ?? 5000);
const JUMPS = 300;
const STEP_PX = 120;
const ROW_PX = 40;
const GOAL_MS = 16.7;

const ENTITY = JSON.stringify({
  name: "Order",
  type: "object",
  properties: {
    title: { type: "string" },
    status: { type: "string", enum: ["open", "paid", "shipped", "returned"] },
    amount: { type: "number" },
    paid: { type: "boolean" },
    due: { type: "string", format: "date-time" },
    tags: { type: "array", items: { type: "string", enum: ["gift", "rush", "bulk"] } },
    note: { type: "string" },
  },
});

const PROFILE = process.env.BENCH_GRID_PROFILE === "1";

const log = (line = "") => console.log(line);

type TraceEvent = {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string };
};
type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};

/**
 * Runs `work` with Chromium's trace and a CPU profile, and prints where the renderer's main thread
 * spent its time: the trace's events by name (inclusive), the JavaScript by function (self time).
 */
export async function profiled<T>(
  browser: Browser,
  page: Page,
  label: string,
  work: () => Promise<T>,
  enabled = PROFILE,
): Promise<T> {
  if (!enabled) return work();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await browser.startTracing(page, { categories: ["devtools.timeline", "blink", "v8"] });
  await cdp.send("Profiler.start");
  const result = await work();
  const { profile } = (await cdp.send("Profiler.stop")) as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  await cdp.detach();
  const mainThreads = new Set(
    trace.traceEvents
      .filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byName = new Map<string, number>();
  for (const e of trace.traceEvents) {
    if (e.ph !== "X" || !e.dur || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
  }
  log(
    `profile of ${label}: trace events on the main thread (inclusive ms, nested ones counted in their parents too)`,
  );
  for (const [name, total] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 18)) {
    log(`  ${total.toFixed(0).padStart(7)} ms  ${name}`);
  }
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const n = nodes.get(id)!;
    const f = n.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    all += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  log(`  JavaScript by self time (of ${all.toFixed(0)} ms sampled):`);
  for (const [key, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    log(`  ${t.toFixed(0).padStart(7)} ms  ${key}`);
  }
  return result;
}
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** What the page measured in one run of frames. */
type FrameRun = {
  deltas: number[];
  /** Frames with a loaded row in view missing or empty in the page, and such rows in all. */
  blankFrames: number;
  blankRows: number;
  /** Rows in view that were loaded, summed over frames (what "blank" is out of). */
  expectedRows: number;
  maxDomRows: number;
  loadedRows: number;
  /** Frames at the end of the loaded rows, waiting for the next page. */
  waitingFrames: number;
  seconds: number;
  /** Main-thread tasks over 50 ms (the Long Tasks API) while the frames ran: their count and time. */
  longTasks: number;
  longTaskMs: number;
};

function summary(label: string, run: FrameRun, baseline?: FrameRun): string {
  const p95 = percentile(run.deltas, 95);
  const ratio = baseline
    ? `; ×${(median(run.deltas) / median(baseline.deltas)).toFixed(2)} p50, ×${(p95 / percentile(baseline.deltas, 95)).toFixed(2)} p95 of the baseline`
    : "";
  // A frame at 60 Hz is 16.7 ms, give or take the timer's jitter (a tenth of a millisecond):
  // a delta over 17.5 ms is a frame missed.
  const late = run.deltas.filter((d) => d > 17.5).length;
  return (
    `${label}: ${run.deltas.length} frames, p50 ${ms(median(run.deltas))}, p95 ${ms(p95)}, max ${ms(Math.max(...run.deltas))}` +
    ` (goal p95 ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS + 0.2 ? "met" : "missed"}); ${((100 * late) / run.deltas.length).toFixed(1)}% of frames late${ratio}`
  );
}

async function seed(databaseUrl: string) {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: "Bench grid" });
  await seedVersion(appId, builder.accountId!, { "entities/Order.json": ENTITY }, { current: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO entity_records (app_id, entity, creator_id, data, created_at, updated_at)
       SELECT $1, 'Order', $2,
         jsonb_build_object(
           'title', 'Order ' || g,
           'status', (ARRAY['open','paid','shipped','returned'])[1 + g % 4],
           'amount', (g * 37) % 10000 / 100.0,
           'paid', g % 3 = 0,
           'due', to_char(timestamptz '2026-01-01' + g * interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           'tags', CASE WHEN g % 5 = 0 THEN '["gift","rush"]'::jsonb ELSE '["bulk"]'::jsonb END,
           'note', 'A note about order ' || g),
         now() - g * interval '1 second', now() - g * interval '1 second'
       FROM generate_series(1, ${RECORDS}) g`,
      [appId, builder.id],
    );
    await client.query("VACUUM ANALYZE entity_records");
    // The section's header count, as the planner runs it and along the list index alone.
    for (const seqscan of ["on", "off"]) {
      await client.query(`SET enable_seqscan = ${seqscan}`);
      const times: number[] = [];
      let plan = "";
      for (let i = 0; i < 30; i++) {
        const { rows } = await client.query(
          `EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*)::int FROM entity_records WHERE app_id = $1 AND entity = 'Order'`,
          [appId],
        );
        const top = rows[0]["QUERY PLAN"][0];
        times.push(top["Execution Time"]);
        plan =
          JSON.stringify(top.Plan).match(
            /"Node Type":"(Index Only Scan|Seq Scan|Index Scan|Bitmap Heap Scan)"/,
          )?.[1] ?? "?";
      }
      log(
        `the count of ${RECORDS.toLocaleString("en")} records (enable_seqscan ${seqscan}): p50 ${ms(median(times))}, p95 ${ms(percentile(times, 95))} (${plan})`,
      );
    }
  } finally {
    await client.end();
  }
  return { builder, appId };
}

/** The grid's frames: scrolled a step per frame until `rows` rows are passed, or jumped around. */
async function gridFrames(
  page: Page,
  mode: "scroll" | "jump",
  rows: number,
  jumps: number,
): Promise<FrameRun> {
  return page.evaluate(
    ({ mode, rows, jumps, step, rowPx }) =>
      new Promise<FrameRun>((resolve) => {
        const grid = document.querySelector<HTMLElement>('[role="grid"]')!;
        const box = grid.parentElement!;
        const body = grid.querySelector("tbody")!;
        const header = grid.querySelector("thead")!.getBoundingClientRect().height;
        const run: FrameRun = {
          deltas: [],
          blankFrames: 0,
          blankRows: 0,
          expectedRows: 0,
          maxDomRows: 0,
          loadedRows: 0,
          waitingFrames: 0,
          seconds: 0,
          longTasks: 0,
          longTaskMs: 0,
        };
        const observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            run.longTasks++;
            run.longTaskMs += e.duration;
          }
        });
        observer.observe({ type: "longtask" });
        const started = performance.now();
        let last = started;
        let jumped = 0;
        let seed = 7;
        const random = () => {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          return seed / 2147483648;
        };
        const loaded = () => Number(grid.dataset.loadedRows ?? 0);
        const frame = (now: number) => {
          run.deltas.push(now - last);
          last = now;
          // What is in view now: each loaded row there must be in the page, with its text.
          const count = loaded();
          const first = Math.max(0, Math.floor((box.scrollTop - header) / rowPx));
          const lastRow = Math.min(
            count - 1,
            Math.floor((box.scrollTop + box.clientHeight - header) / rowPx),
          );
          const present = new Map<number, HTMLElement>();
          for (const tr of body.querySelectorAll<HTMLElement>("tr[aria-rowindex]")) {
            present.set(Number(tr.getAttribute("aria-rowindex")) - 2, tr);
          }
          let blank = 0;
          for (let r = first; r <= lastRow; r++) {
            const tr = present.get(r);
            if (!tr || tr.dataset.state === "loading" || !tr.textContent) blank++;
          }
          run.expectedRows += Math.max(0, lastRow - first + 1);
          run.blankRows += blank;
          if (blank > 0) run.blankFrames++;
          run.maxDomRows = Math.max(run.maxDomRows, present.size);
          if (mode === "scroll") {
            if (first >= rows) return done(count);
            const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 1;
            if (atEnd) run.waitingFrames++;
            box.scrollTop += step;
          } else {
            if (jumped++ >= jumps) return done(count);
            box.scrollTop = Math.floor(random() * Math.max(0, count * rowPx - box.clientHeight));
          }
          requestAnimationFrame(frame);
        };
        const done = (count: number) => {
          observer.disconnect();
          run.loadedRows = count;
          run.seconds = (performance.now() - started) / 1000;
          resolve(run);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(frame);
        });
      }),
    { mode, rows, jumps, step: STEP_PX, rowPx: ROW_PX },
  );
}

/** The baseline: a plain div as high as the grid's loaded rows, scrolled by the same steps. */
async function baselineFrames(page: Page, height: number, frames: number): Promise<FrameRun> {
  return page.evaluate(
    ({ height, frames, step, rowPx }) =>
      new Promise<FrameRun>((resolve) => {
        const box = document.createElement("div");
        box.style.cssText =
          "position:fixed;top:0;left:0;width:800px;height:480px;overflow:auto;z-index:99999;background:white";
        const inner = document.createElement("div");
        inner.style.height = `${height}px`;
        // Text every 40 px, as many lines as the grid shows (the plain div renders them all).
        inner.style.backgroundImage = "repeating-linear-gradient(#fff 0 39px, #ddd 39px 40px)";
        box.append(inner);
        document.body.append(box);
        const run: FrameRun = {
          deltas: [],
          blankFrames: 0,
          blankRows: 0,
          expectedRows: 0,
          maxDomRows: 0,
          loadedRows: Math.floor(height / rowPx),
          waitingFrames: 0,
          seconds: 0,
          longTasks: 0,
          longTaskMs: 0,
        };
        const started = performance.now();
        let last = started;
        const frame = (now: number) => {
          run.deltas.push(now - last);
          last = now;
          if (run.deltas.length >= frames) {
            run.seconds = (performance.now() - started) / 1000;
            box.remove();
            return resolve(run);
          }
          box.scrollTop = (box.scrollTop + step) % Math.max(1, height - 480);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(frame);
        });
      }),
    { height, frames, step: STEP_PX, rowPx: ROW_PX },
  );
}

export async function runGridScrollBench(
  start: (extra: Record<string, string>) => Promise<NextServer>,
  databaseUrl: string,
): Promise<void> {
  log(
    `bench (records grid): ${RECORDS.toLocaleString("en")} records of an entity, scrolled in headless Chromium`,
  );
  const { builder, appId } = await seed(databaseUrl);
  const server = await start({});
  // The app's own address (APP_URL names localhost): its sign-in checks where requests come from.
  const base = server.url.replace("127.0.0.1", "localhost");
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const pageTimes: number[] = [];
    page.on("requestfinished", (req) => {
      if (!req.url().includes("/entities/Order/records")) return;
      const t = req.timing();
      pageTimes.push(t.responseEnd - t.requestStart);
    });
    await page.goto(`${base}/login`);
    await page.getByLabel("Email", { exact: true }).fill(builder.email);
    await page.getByLabel("Password", { exact: true }).fill(builder.password);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL(/\/home$/);
    await page.goto(`${base}/build/app/${appId}`);
    await page
      .getByRole("navigation", { name: messages.editorPanels })
      .getByRole("button", { name: messages.editorMenuDatabase })
      .click();
    const grid = page.getByRole("grid", { name: `${messages.databaseRecords}: Order` });
    await grid.locator('tr[aria-rowindex="2"]').waitFor({ timeout: 120_000 });
    const header = await page
      .getByText(new RegExp(`^${messages.databaseRecordsCount.replace("{count}", "[\\d,]+")}$`))
      .textContent();
    log(`the section's header: "${header}"`);
    // The grid says how many rows it has loaded (data-loaded-rows), for the checks of each frame.
    await page.waitForFunction(
      () => Number(document.querySelector('[role="grid"]')?.getAttribute("data-loaded-rows")) > 0,
    );

    // tsx names the page's functions through a helper the page has not: given here.
    await page.evaluate("globalThis.__name = (f) => f");
    const scroll = await profiled(browser, page, "the continuous scroll", () =>
      gridFrames(page, "scroll", SCROLL_ROWS, 0),
    );
    const jump = await profiled(browser, page, "the jumps", () => gridFrames(page, "jump", 0, JUMPS));
    const baseline = await baselineFrames(page, scroll.loadedRows * ROW_PX, scroll.deltas.length);

    log(summary("baseline: a plain div of the same height, the same steps", baseline));
    log(
      summary(
        `continuous scroll (${STEP_PX} px a frame) through ${SCROLL_ROWS.toLocaleString("en")} rows`,
        scroll,
        baseline,
      ),
    );
    log(
      `  ${scroll.seconds.toFixed(1)} s, ${scroll.loadedRows.toLocaleString("en")} rows loaded by then (${(scroll.loadedRows / scroll.seconds).toFixed(0)} rows/s); ` +
        `${scroll.waitingFrames} frames at the end of the loaded rows waiting for a page; ` +
        `blank rows in view: ${scroll.blankRows} of ${scroll.expectedRows} (${scroll.blankFrames} frames); rows in the page at most ${scroll.maxDomRows}; ` +
        `main-thread tasks over 50 ms: ${scroll.longTasks} (${scroll.longTaskMs.toFixed(0)} ms in all)`,
    );
    log(summary(`jump scroll (${JUMPS} jumps, one a frame, within the loaded rows)`, jump, baseline));
    log(
      `  blank rows in view: ${jump.blankRows} of ${jump.expectedRows} (${jump.blankFrames} frames: a jump's rows are rendered by the next frame); rows in the page at most ${jump.maxDomRows}; ` +
        `main-thread tasks over 50 ms: ${jump.longTasks} (${jump.longTaskMs.toFixed(0)} ms in all)`,
    );
    log(
      `page requests (GET .../records?limit=100, as the browser timed them): ${pageTimes.length}, p50 ${ms(median(pageTimes))}, p95 ${ms(percentile(pageTimes, 95))}`,
    );
    log(
      `not scrolled: rows past ${scroll.loadedRows.toLocaleString("en")} of ${RECORDS.toLocaleString("en")} (the grid pages by cursor as it is scrolled; at this pace the rest would take ${((RECORDS - scroll.loadedRows) / (scroll.loadedRows / scroll.seconds) / 60).toFixed(1)} min)`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}
