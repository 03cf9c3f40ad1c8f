import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import { db } from "@/db/client";
import { QUEUES } from "@/db/job-queues";
import { insertApp } from "@/db/queries/apps";
import { monthlyContextUsage } from "@/db/queries/context-usage";
import { contextItems } from "@/db/schema";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import { hostileDocx, hostilePdf } from "../support/documents";
import { createBuilder } from "../support/factories";
import { send } from "../support/uploads-client";

// A document built to exhaust its parser (a Word file whose DOM needs gigabytes, a PDF that keeps
// pdf.js busy for a minute) is read by the parsing worker, outside the server's event loop and
// heap: while it is ingested, an HTTP server in this same process keeps answering, this
// process's heap stays where it was, and the item ends in Error with the reason, not retried.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "parse-limits-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
// The worker's clock, shortened so the stalling PDF is given up on sooner than in production.
process.env.PARSE_TIMEOUT_SECONDS = "10";
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

const MB = 1024 * 1024;
let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Requests one after another to the server while `work` runs: their latencies and the peak memory. */
async function whileAnswering(work: () => Promise<unknown>) {
  const latencies: number[] = [];
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  let done = false;
  const running = work().finally(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    await (await fetch(url)).text();
    latencies.push(performance.now() - started);
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await running;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    p99: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!,
    heapGrowth: peakHeap - before.heapUsed,
    rssGrowth: peakRss - before.rss,
  };
}

async function ingestHostile(file: Buffer, name: string) {
  // A free builder, as in the report.
  const b = await createBuilder();
  const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Hostile" });
  const res = await send(ingestFileRoute.POST, {
    method: "POST",
    path: `/api/context/ingest/file?appId=${app.id}&name=${name}`,
    params: {},
    token: b.token,
    body: new Uint8Array(file),
  });
  expect(res.status).toBe(200);
  const id = (res.json as unknown as { contextItemId: string }).contextItemId;
  const measured = await whileAnswering(() => runDueJobs());
  const [item] = await db().select().from(contextItems).where(eq(contextItems.id, id));
  const jobs = await db().execute<{ state: string; retry_count: number }>(
    sql`select state, retry_count from pgboss.job where name = ${QUEUES.contextIngest} and data->>'itemId' = ${id}`,
  );
  return { builder: b, item: item!, jobs: jobs.rows, measured };
}

describe("parsing a hostile document", () => {
  it("a Word file whose DOM would need gigabytes: the server answers, its heap stays, Error, not retried", async () => {
    const docx = hostileDocx();
    expect(docx.length).toBeGreaterThan(500 * 1024);
    expect(docx.length).toBeLessThan(800 * 1024);
    const { builder, item, jobs, measured } = await ingestHostile(docx, "bomb.docx");
    expect(item).toMatchObject({ status: "error", error: messages.contextFileTooComplex });
    expect(jobs).toEqual([{ state: "completed", retry_count: 0 }]);
    expect(measured.requests).toBeGreaterThan(5);
    expect(measured.p99).toBeLessThan(1000);
    // The parsing happens in the worker's heap, capped at 256 MB: this thread's barely moves.
    expect(measured.heapGrowth).toBeLessThan(100 * MB);
    expect(measured.rssGrowth).toBeLessThan(1024 * MB);
    // Charged by the markup it unpacks to (about 20 MiB), not by its upload (under 1 MB).
    expect(await monthlyContextUsage(builder.account.accountId)).toBeGreaterThan(19 * MB);
  }, 180_000);

  it("a PDF that keeps pdf.js busy for a minute: the server answers, Error past the clock, not retried", async () => {
    const { item, jobs, measured } = await ingestHostile(hostilePdf(), "stall.pdf");
    expect(item).toMatchObject({ status: "error", error: messages.contextFileTooComplex });
    expect(jobs).toEqual([{ state: "completed", retry_count: 0 }]);
    expect(measured.requests).toBeGreaterThan(5);
    expect(measured.p99).toBeLessThan(1000);
    expect(measured.heapGrowth).toBeLessThan(100 * MB);
    expect(measured.rssGrowth).toBeLessThan(1024 * MB);
  }, 180_000);
});
