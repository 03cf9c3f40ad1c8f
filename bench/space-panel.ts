import crypto from "node:crypto";
import os from "node:os";
import * as recordsRoute from "@/app/api/apps/[appId]/entities/[entity]/records/route";
import * as entitiesRoute from "@/app/api/apps/[appId]/entities/route";
import { pool } from "@/db/client";
import type { FileChange } from "@/lib/space/schemas";
import { createBuilder } from "../tests/support/factories";
import { call } from "../tests/support/http";
import { createSpaceApp, say } from "../tests/support/space";
import { withScratchDb } from "./scratch-db";
import { median, percentile } from "./stats";

// The Database panel's two first reads, figures only, never pass/fail: an app of 200 files of
// which 20 are entities (1,000 records each), read as the panel reads it when it opens:
//  1. GET /api/apps/{appId}/entities (the current version's entities, their fields and access);
//  2. GET /api/apps/{appId}/entities/{entity}/records?limit=50 (the first page, newest first, and
//     the entity's count).
// Each through the real route handler in this process with a real request (the builder's session,
// the app's access check, zod, the answer), p50 and p95 of server time (goal: p95 ≤ 50 ms each),
// beside a baseline of the same run: the same rows read by one bare query (the entities' files;
// 50 records by the list index). The answers are checked: 20 entities with their fields, 50 rows.
// Run by bench/run.ts as a child process on its database (DATABASE_URL), or alone:
//   NODE_ENV=production node --conditions=react-server --import tsx bench/space-panel.ts
// BENCH_PANEL_CALLS (per case and round, default 100), BENCH_PANEL_ROUNDS (default 3).

const CALLS = Number(process.env.BENCH_PANEL_CALLS ?? 100);
const ROUNDS = Number(process.env.BENCH_PANEL_ROUNDS ?? 3);
const FILES = 200;
const ENTITIES = 20;
const RECORDS = 1000;
const GOAL_MS = 50;
const DB_NAME = "bench_space_panel";

const log = (line = "") => console.log(line);
const ms = (x: number) => `${x.toFixed(2)} ms`;

const entityName = (i: number) => `Thing${String(i).padStart(2, "0")}`;

function entitySchema(i: number): string {
  return JSON.stringify({
    type: "object",
    properties: {
      title: { type: "string" },
      status: { type: "string", enum: ["open", "done", "archived"] },
      amount: { type: "number" },
      image_url: { type: "string" },
      due: { type: "string", format: "date-time" },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] } },
      address: { type: "object", properties: { city: { type: "string" }, zip: { type: "string" } } },
      [`note${i}`]: { type: "string" },
    },
    required: ["title"],
  });
}

/** 200 files: 20 entities, the rest pages and components of a few kB each. */
function files(): FileChange[] {
  const changes: FileChange[] = [];
  for (let i = 0; i < ENTITIES; i++)
    changes.push({ type: "add_entity", name: entityName(i), content: entitySchema(i) });
  for (let i = 0; changes.length < FILES; i++) {
    const dir = i % 2 === 0 ? "pages" : "components";
    const body = Array.from(
      { length: 60 },
      (_, l) => `      <p className="p-2">Line ${l} of file ${i}</p>`,
    ).join("\n");
    changes.push({
      type: "add_file",
      path: `${dir}/File${i}.jsx`,
      content: `export default function File${i}() {\n  return (\n    <div>\n${body}\n    </div>\n  );\n}\n`,
    });
  }
  return changes;
}

type Timed = { api: number[]; bare: number[] };

async function time(fn: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main() {
  if (!process.env.AUTH_SECRET) process.env.AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
  await withScratchDb(DB_NAME, async () => {
    log(`bench (Database panel): an app of ${FILES} files, ${ENTITIES} entities of ${RECORDS} records`);
    const builder = await createBuilder();
    const app = await createSpaceApp(builder.account.accountId, "Bench panel");
    await say(app, builder.account.accountId, { user: "Build it", answer: "Built.", changes: files() });
    await pool().query(
      `INSERT INTO entity_records (app_id, entity, creator_id, data, created_at, updated_at)
       SELECT $1, 'Thing' || lpad((g % ${ENTITIES})::text, 2, '0'), $2,
         jsonb_build_object('title', 'Thing ' || g, 'status', (ARRAY['open','done','archived'])[1 + g % 3], 'amount', g),
         now() - g * interval '1 second', now() - g * interval '1 second'
       FROM generate_series(1, ${ENTITIES * RECORDS}) g`,
      [app.id, builder.user.id],
    );
    await pool().query("VACUUM ANALYZE entity_records");
    const entity = entityName(7);

    const listEntities = async () => {
      const res = await call<{ entities: { name: string; fields: unknown[] }[] }>(entitiesRoute.GET, {
        method: "GET",
        path: `/api/apps/${app.id}/entities`,
        params: { appId: app.id },
        token: builder.token,
      });
      if (res.status !== 200 || res.json.entities.length !== ENTITIES)
        throw new Error(`entities: ${res.status}`);
    };
    const bareEntities = async () => {
      const { rows } = await pool().query(
        `SELECT f.path, b.content FROM app_files f JOIN space_blobs b ON b.app_id = f.app_id AND b.hash = f.blob_hash
         WHERE f.app_id = $1 AND f.path LIKE 'entities/%'`,
        [app.id],
      );
      if (rows.length !== ENTITIES) throw new Error("bare entities");
      for (const r of rows) JSON.parse(r.content);
    };
    const firstPage = async () => {
      const res = await call<{ records: unknown[] }>(recordsRoute.GET, {
        method: "GET",
        path: `/api/apps/${app.id}/entities/${entity}/records?limit=50`,
        params: { appId: app.id, entity },
        token: builder.token,
      });
      if (res.status !== 200 || res.json.records.length !== 50) throw new Error(`records: ${res.status}`);
    };
    const barePage = async () => {
      const { rows } = await pool().query(
        `SELECT id, creator_id, data, created_at FROM entity_records WHERE app_id = $1 AND entity = $2
         ORDER BY created_at DESC, id DESC LIMIT 50`,
        [app.id, entity],
      );
      if (rows.length !== 50) throw new Error("bare page");
    };

    const cases: [string, () => Promise<void>, () => Promise<void>, string][] = [
      [
        "the entities (GET .../entities)",
        listEntities,
        bareEntities,
        `${ENTITIES} entities with their fields`,
      ],
      ["the first page of records (GET .../records?limit=50)", firstPage, barePage, "50 rows and the count"],
    ];
    for (const [, api, bare] of cases) for (let i = 0; i < 20; i++) await Promise.all([api(), bare()]);
    for (const [label, api, bare, checked] of cases) {
      const t: Timed = { api: [], bare: [] };
      // Alternated round by round: other work on the machine weighs on both alike.
      for (let r = 0; r < ROUNDS; r++) {
        for (let i = 0; i < CALLS; i++) t.api.push(await time(api));
        for (let i = 0; i < CALLS; i++) t.bare.push(await time(bare));
      }
      const p95 = percentile(t.api, 95);
      log(
        `${label}: p50 ${ms(median(t.api))}, p95 ${ms(p95)} (goal p95 ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS ? "met" : "missed"})`,
      );
      log(
        `  bare query of the same rows: p50 ${ms(median(t.bare))}, p95 ${ms(percentile(t.bare, 95))}; ratio of p50s ${(median(t.api) / median(t.bare)).toFixed(2)}×; answers checked: ${checked}`,
      );
    }
    log(
      `load average (1 min) of this machine's ${os.availableParallelism()} cores: ${os.loadavg()[0]!.toFixed(1)}`,
    );
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
