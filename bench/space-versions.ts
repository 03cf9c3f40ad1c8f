import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { insertAccountIfMissing } from "@/db/queries/accounts";
import { insertApp } from "@/db/queries/apps";
import { listAppFilesWithContent, readBlobs } from "@/db/queries/space-files";
import { versionTreeHashes } from "@/db/queries/space-versions";
import { insertUser } from "@/db/queries/users";
import type { App } from "@/db/schema";
import { SPACE_SNAPSHOT_INTERVAL } from "@/lib/constants";
import { applyFileChanges } from "@/lib/space/versions";
import { withScratchDb } from "./scratch-db";

// The versions benchmark of space apps, figures only, never pass/fail, each against a
// baseline measured in this run:
//  1. storage per version of a 200-file app after a one-file change (goal: about the size of that
//     file, not of the app): the growth of every table a version writes (versions, version_files,
//     space_blobs, app_files, with their TOAST and indexes) per version, as bytes and as ratios to
//     the changed file's size, to the same contents stored alone in a one-column table, and to the
//     app's size (what a copy of the whole app per version would cost);
//  2. reading a version's whole tree with contents, for the current version and for the version
//     furthest from a full listing (SPACE_SNAPSHOT_INTERVAL - 1 versions of changes to walk), as a
//     ratio to reading the current files (app_files, no walk);
//  3. the time of one change (lock, diff, version, files), as a ratio to a bare transaction
//     inserting the same content into a one-column table.
//
// Run by bench/run.ts as a child process on its database (DATABASE_URL), or alone:
//   node --conditions=react-server --import tsx bench/space-versions.ts
// which starts the embedded PostgreSQL in .data/bench-postgres with a fresh database.
// BENCH_SPACE_FILES (default 200), BENCH_SPACE_VERSIONS (default 200), BENCH_SPACE_READS (default 30).

const FILES = Number(process.env.BENCH_SPACE_FILES ?? 200);
const VERSIONS = Number(process.env.BENCH_SPACE_VERSIONS ?? 200);
const READS = Number(process.env.BENCH_SPACE_READS ?? 30);
const DB_NAME = "bench_space";
const TABLES = ["versions", "version_files", "space_blobs", "app_files"];

const log = (line = "") => console.log(line);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** A deterministic stream of pseudo-random numbers, so every run stores the same app. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = [
  "title",
  "items",
  "user",
  "status",
  "onClick",
  "className",
  "render",
  "value",
  "count",
  "loading",
];

/** A React component of about `lines` lines, varied enough that it compresses like real code. */
function component(name: string, lines: number, rnd: () => number): string {
  const body: string[] = [`import { useState } from "react";`, "", `export default function ${name}() {`];
  for (let i = 0; i < lines; i++) {
    const a = WORDS[Math.floor(rnd() * WORDS.length)]!;
    const b = WORDS[Math.floor(rnd() * WORDS.length)]!;
    const n = Math.floor(rnd() * 100000);
    body.push(`  const ${a}${i} = useState(${JSON.stringify(`${b}-${n}`)}); // ${b} ${a} ${n.toString(36)}`);
  }
  body.push('  return <div className="p-4">{title0}</div>;', "}", "");
  return body.join("\n");
}

async function benchApp(): Promise<App> {
  const user = (await insertUser({
    tenantId: null,
    email: `bench-space-${crypto.randomUUID().slice(0, 8)}@example.com`,
    emailVerifiedAt: new Date(),
  }))!;
  const account = await insertAccountIfMissing({ userId: user.id, accountType: "builder", appId: null });
  return insertApp({ ownerAccountId: account.accountId, type: "space", header: "Bench space" });
}

/** Bytes on disk of the tables a version writes, with their TOAST tables and indexes. */
async function storedBytes(): Promise<number> {
  const r = await db().execute<{ n: string }>(
    sql.raw(
      `select sum(pg_total_relation_size(t)::bigint)::text as n from unnest(array[${TABLES.map((t) => `'${t}'::regclass`).join(",")}]) t`,
    ),
  );
  return Number(r.rows[0]!.n);
}

async function plainBytes(): Promise<number> {
  const r = await db().execute<{ n: string }>(sql`select pg_total_relation_size('bench_plain')::text as n`);
  return Number(r.rows[0]!.n);
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function readVersion(app: App, versionId: string) {
  const tree = await versionTreeHashes(app.id, versionId);
  const contents = await readBlobs(app.id, [...tree.values()]);
  if (contents.size === 0) throw new Error("empty tree");
  return contents;
}

async function main() {
  await withScratchDb(DB_NAME, run);
}

async function run() {
  const rnd = random(42);
  const app = await benchApp();
  const files = new Map<string, string>();
  for (let i = 0; i < FILES; i++) {
    const folder = i % 4 === 0 ? "pages" : "components";
    files.set(`${folder}/Part${i}.jsx`, component(`Part${i}`, 20 + Math.floor(rnd() * 120), rnd));
  }
  const appBytes = [...files.values()].reduce((s, c) => s + Buffer.byteLength(c), 0);
  log(`bench (space versions): a ${FILES}-file app of ${kb(appBytes)}, then ${VERSIONS} one-file changes`);
  const first = (await applyFileChanges(
    app.id,
    [...files].map(([p, content]) => ({ type: "add_file" as const, path: p, content })),
    { kind: "chat" },
  ))!;
  await db().execute(sql`create table if not exists bench_plain (content text not null)`);
  await db().execute(sql`truncate bench_plain`);
  await db().execute(sql.raw(`vacuum analyze ${[...TABLES, "bench_plain"].join(", ")}`));

  // The changes: one line of one file rewritten, whole file stored (content addressing).
  const paths = [...files.keys()];
  const changes = Array.from({ length: VERSIONS }, (_, v) => {
    const p = paths[Math.floor(rnd() * paths.length)]!;
    const lines = files.get(p)!.split("\n");
    const at = 3 + Math.floor(rnd() * (lines.length - 6));
    lines[at] = `  const edited${v} = useState(${JSON.stringify(`edit ${v} ${rnd().toString(36)}`)});`;
    const content = lines.join("\n");
    files.set(p, content);
    return { path: p, content };
  });
  const changedBytes = changes.reduce((s, c) => s + Buffer.byteLength(c.content), 0) / VERSIONS;

  const before = await storedBytes();
  const plainBefore = await plainBytes();
  const commitMs: number[] = [];
  const bareMs: number[] = [];
  const ids: string[] = [first.id];
  for (const change of changes) {
    commitMs.push(
      await timed(async () => {
        const v = await applyFileChanges(app.id, [{ type: "edit_file", ...change }], { kind: "chat" });
        ids.push(v!.id);
      }),
    );
    bareMs.push(
      await timed(() =>
        db().transaction((tx) =>
          tx.execute(sql`insert into bench_plain (content) values (${change.content})`),
        ),
      ),
    );
  }
  // Dead rows of app_files' updates are space the next writes reuse; vacuum makes both sides fair.
  await db().execute(sql.raw(`vacuum ${[...TABLES, "bench_plain"].join(", ")}`));
  const perVersion = ((await storedBytes()) - before) / VERSIONS;
  const plainPerRow = ((await plainBytes()) - plainBefore) / VERSIONS;
  const rowBytes = await db().execute<{ n: string }>(sql`
    with later as (select id from versions where app_id = ${app.id} and number > 1)
    select (
      (select coalesce(sum(pg_column_size(v.*)), 0) from versions v where v.id in (select id from later))
    + (select coalesce(sum(pg_column_size(f.*)), 0) from version_files f where f.version_id in (select id from later))
    + (select coalesce(sum(pg_column_size(b.content)), 0) from space_blobs b where b.app_id = ${app.id}
        and b.hash in (select f.blob_hash from version_files f where f.version_id in (select id from later)))
    )::text as n`);
  const logicalPerVersion = Number(rowBytes.rows[0]!.n) / VERSIONS;

  // Reading: the current version, and the one furthest from a full listing.
  const far = ids.reduce(
    (best, _id, i) => (i % SPACE_SNAPSHOT_INTERVAL > best % SPACE_SNAPSHOT_INTERVAL ? i : best),
    0,
  );
  const readCurrent: number[] = [];
  const readFar: number[] = [];
  const readBase: number[] = [];
  for (let i = 0; i < READS; i++) {
    readBase.push(await timed(() => listAppFilesWithContent(app.id)));
    readCurrent.push(await timed(() => readVersion(app, ids.at(-1)!)));
    readFar.push(await timed(() => readVersion(app, ids[far]!)));
  }
  const [p50Base, p50Current, p50Far] = [readBase, readCurrent, readFar].map((xs) => quantile(xs, 0.5));
  const [p99Current, p99Far] = [readCurrent, readFar].map((xs) => quantile(xs, 0.99));

  log("");
  log(`space versions: storage per version after a one-file change (${VERSIONS} versions, ${FILES} files)`);
  log(`  changed file: ${kb(changedBytes)} on average; the app: ${kb(appBytes)}`);
  log(
    `  on disk (tables, TOAST, indexes): ${Math.round(perVersion)} bytes per version = ${ratio(perVersion, changedBytes)} the changed file, ` +
      `${ratio(perVersion, plainPerRow)} the file stored alone (${Math.round(plainPerRow)} bytes), ` +
      `${((100 * perVersion) / appBytes).toFixed(2)}% of the app`,
  );
  log(
    `  rows written (version and version_files rows, new contents as stored): ${Math.round(logicalPerVersion)} bytes per version = ` +
      `${ratio(logicalPerVersion, changedBytes)} the changed file`,
  );
  log(
    perVersion <= 2 * changedBytes
      ? "  meets the goal (about the size of the changed file, not of the app)"
      : "  ABOVE the goal (about the size of the changed file): look at what commitTree writes",
  );
  log(`space versions: reading a version's ${FILES} files with contents (${READS} reads each)`);
  log(`  current files (app_files, baseline): p50 ${p50Base!.toFixed(1)} ms`);
  log(
    `  current version: p50 ${p50Current!.toFixed(1)} ms (${ratio(p50Current!, p50Base!)}), p99 ${p99Current!.toFixed(1)} ms`,
  );
  log(
    `  version ${far + 1} (${far % SPACE_SNAPSHOT_INTERVAL} versions from a full listing): p50 ${p50Far!.toFixed(1)} ms ` +
      `(${ratio(p50Far!, p50Base!)}), p99 ${p99Far!.toFixed(1)} ms`,
  );
  const [commitP50, bareP50] = [quantile(commitMs, 0.5), quantile(bareMs, 0.5)];
  log(
    `space versions: one change ${commitP50.toFixed(1)} ms p50 vs ${bareP50.toFixed(1)} ms for a bare insert of the file ` +
      `(${ratio(commitP50, bareP50)}), p99 ${quantile(commitMs, 0.99).toFixed(1)} ms`,
  );
  await db().execute(sql`drop table if exists bench_plain`);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
