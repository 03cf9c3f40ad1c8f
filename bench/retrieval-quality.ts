import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findContextItem } from "@/db/queries/context";
import { ingestFile } from "@/lib/context/files";
import { runDueJobs } from "@/lib/jobs/worker";
import { stopBoss } from "@/lib/queue/boss";
import { BENCH_OWNER, newApp, uploadOf } from "./context-app";
import { DATASET_FILES, DATASETS_PACKAGE, datasetFiles } from "./quality-datasets";
import { benchDocuments } from "./quality-documents";
import { csvQuestions, type DocumentKind, type Question } from "./quality-questions";
import {
  bruteForceRanker,
  type Chunk,
  chunkKey,
  loadChunks,
  oldRanker,
  productRanker,
  RANK_LIMIT,
  type Ranked,
  type Ranker,
} from "./quality-rankers";
import { withScratchDb } from "./scratch-db";

// The retrieval-quality benchmark of `npm run bench`: does a run's grounding find the
// excerpt that answers a factual question? Real-world documents nobody here wrote go through the
// product's own ingestion (upload, then the worker's job: CSV streaming, PDF and Word parsing,
// chunking) into one app:
//  - the CSVs of the npm package vega-datasets (7 KB to 2 MB, up to 42,000 rows), fetched with
//    `npm pack` at bench time and cached under .data/bench-datasets (bench/quality-datasets.ts);
//    offline with an empty cache, this part says why it is skipped and the bench goes on;
//  - PDFs and Word files made from technical text installed in node_modules: mime-db's table of
//    media types, the changelogs of recharts, nodemailer and mime-db, an index of sharp's C++
//    headers (bench/quality-documents.ts).
// Then some 70 questions as an end user types them, each built from the data it asks about
// (bench/quality-questions.ts), each with a needle: the strings the right excerpt holds, all of
// them. A question whose needle no stored chunk holds is broken: the bench stops and says so.
//
// recall@10 (the questions whose top 10 holds a chunk with the needle) of three rankings of the
// same chunks (bench/quality-rankers.ts): the product (a run's retrievalQuery, then
// retrieveChunks), against brute-force BM25 over all of the app's chunks (the reference) and the
// ranking from before BM25 (ts_rank over the first 100 matches). Goal: the product at ≥ 90 % and
// within 3 points of brute-force BM25. The questions the product missed are listed with its top 3.
//
// Started by bench/run.ts (BENCH_ONLY=quality for this part alone) as a child process on the
// run's database; alone, on a scratch database of the bench's embedded PostgreSQL:
//   node --conditions=react-server --import tsx bench/retrieval-quality.ts
// Takes about a minute (most of it ingesting the 2 MB CSV); the files it stores live in a
// temporary directory removed at the end.

const RECALL_GOAL = 0.9;
const BM25_GAP_POINTS = 3;
const KINDS: DocumentKind[] = ["csv", "pdf", "docx"];

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "bench-quality-"));
// Uploaded files go to the disk driver under the temporary directory (read before lib/env is);
// run alone, the bench has no AUTH_SECRET of bench/run.ts, which lib/env requires.
process.env.STORAGE_DIR = path.join(TMP, "storage");
delete process.env.S3_BUCKET;
process.env.AUTH_SECRET ??= crypto.randomBytes(32).toString("base64url");

const log = (line = "") => console.log(line);
const pct = (n: number, of: number) => (of ? (100 * n) / of : 0);

type Source = { name: string; file: string };

/** Every document uploaded into one app, then the ingestion jobs run through the worker's handler. */
async function ingestAll(sources: Source[]) {
  const app = await newApp("retrieval quality");
  const started = performance.now();
  const ids: string[] = [];
  for (const s of sources)
    ids.push((await ingestFile(app, BENCH_OWNER, s.name, uploadOf(s.file))).contextItemId);
  await runDueJobs();
  const ms = performance.now() - started;
  for (const [i, id] of ids.entries()) {
    const item = await findContextItem(id);
    if (item?.status !== "synced") {
      throw new Error(`${sources[i]!.name} ended ${item?.status ?? "deleted"}: ${item?.error ?? ""}`);
    }
  }
  return { appId: app.id, ms };
}

const holds = (text: string, needle: string[]) => {
  const lower = text.toLowerCase();
  return needle.every((n) => lower.includes(n.toLowerCase()));
};

type Outcome = { hit: boolean; top: Ranked[] };

async function measure(ranker: Ranker, questions: Question[], answers: Map<Question, Set<string>>) {
  const outcomes: Outcome[] = [];
  const started = performance.now();
  for (const q of questions) {
    const top = (await ranker(q.question)).slice(0, RANK_LIMIT);
    outcomes.push({ hit: top.some((r) => answers.get(q)!.has(chunkKey(r.itemId, r.position))), top });
  }
  return { outcomes, msPerQuestion: (performance.now() - started) / questions.length };
}

async function main() {
  const files = await datasetFiles();
  if (typeof files === "string") {
    log(`bench (retrieval quality): SKIPPED, the datasets could not be had (${files})`);
    return;
  }
  const documents = await benchDocuments();
  const sources: Source[] = DATASET_FILES.map((f) => ({ name: f, file: files[f] }));
  for (const d of documents) {
    const file = path.join(TMP, d.name);
    fs.writeFileSync(file, d.bytes);
    sources.push({ name: d.name, file });
  }
  const questions = [
    ...DATASET_FILES.flatMap((f) => csvQuestions(f, files[f])),
    ...documents.flatMap((d) => d.questions),
  ];
  const bytes = sources.reduce((sum, s) => sum + fs.statSync(s.file).size, 0);
  log(
    `bench (retrieval quality): ${sources.length} documents (${DATASET_FILES.length} CSVs of ${DATASETS_PACKAGE}, ` +
      `${documents.length} PDF and Word files), ${(bytes / 1024 / 1024).toFixed(1)} MB, ${questions.length} questions`,
  );

  const { appId, ms } = await ingestAll(sources);
  const chunks = await loadChunks(appId);
  const byKey = new Map<string, Chunk>(chunks.map((c) => [chunkKey(c.itemId, c.position), c]));
  log(
    `  ingestion, upload to Synced: ${(ms / 1000).toFixed(1)} s, ${chunks.length.toLocaleString("en")} chunks`,
  );

  // The chunks that answer each question; one with none is a broken question, not a miss.
  const answers = new Map<Question, Set<string>>();
  const broken: Question[] = [];
  for (const q of questions) {
    const keys = new Set(
      chunks.filter((c) => holds(c.text, q.needle)).map((c) => chunkKey(c.itemId, c.position)),
    );
    answers.set(q, keys);
    if (keys.size === 0) broken.push(q);
  }
  if (broken.length) {
    throw new Error(
      `no stored chunk holds the needle of ${broken.length} question(s):\n` +
        broken.map((q) => `  ${q.document}: "${q.question}" ${JSON.stringify(q.needle)}`).join("\n"),
    );
  }

  const rankers: { label: string; ranker: Ranker }[] = [
    { label: "product (retrieveChunks)", ranker: productRanker(appId) },
    { label: "brute-force BM25", ranker: bruteForceRanker(chunks) },
    { label: "before BM25 (ts_rank)", ranker: oldRanker(appId) },
  ];
  // Warm-up, not counted: the first queries, the tokenizer's dictionaries.
  for (const r of rankers) await r.ranker(questions[0]!.question);
  const results: { label: string; outcomes: Outcome[]; msPerQuestion: number }[] = [];
  for (const r of rankers) results.push({ label: r.label, ...(await measure(r.ranker, questions, answers)) });

  const hits = (outcomes: Outcome[], kind?: DocumentKind) =>
    outcomes.filter((o, i) => o.hit && (!kind || questions[i]!.kind === kind)).length;
  const ofKind = (kind: DocumentKind) => questions.filter((q) => q.kind === kind).length;
  const cell = (n: number, of: number) => `${n}/${of} ${pct(n, of).toFixed(1)} %`.padStart(15);
  log("");
  log(
    `retrieval quality, recall@${RANK_LIMIT} over ${questions.length} questions, ${chunks.length.toLocaleString("en")} chunks:`,
  );
  log(
    `  ${"ranker".padEnd(28)}${"recall@10".padStart(15)}${KINDS.map((k) => k.padStart(15)).join("")}${"ms/question".padStart(13)}`,
  );
  for (const r of results) {
    log(
      `  ${r.label.padEnd(28)}${cell(hits(r.outcomes), questions.length)}` +
        KINDS.map((k) => cell(hits(r.outcomes, k), ofKind(k))).join("") +
        r.msPerQuestion.toFixed(1).padStart(13),
    );
  }
  const [product, bm25, old] = results.map((r) => pct(hits(r.outcomes), questions.length)) as [
    number,
    number,
    number,
  ];
  const gap = bm25 - product;
  log(
    `  product − brute-force BM25 = ${(product - bm25).toFixed(1)} points; product − before BM25 = ` +
      `${(product - old).toFixed(1)} points`,
  );
  const pass = product >= RECALL_GOAL * 100 && gap <= BM25_GAP_POINTS;
  log(
    `  goal: product recall@10 ≥ ${RECALL_GOAL * 100} % and within ${BM25_GAP_POINTS} points of brute-force BM25 — ` +
      `${pass ? "PASS" : "FAIL"} (${product.toFixed(1)} %, ${gap > 0 ? `${gap.toFixed(1)} points below` : "not below"})`,
  );

  // What each ranking put first where it missed, so a miss can be read (the reference's too: a
  // question it misses points at the tokenizer or at the question).
  for (const r of results.slice(0, 2)) {
    const missed = questions.filter((_, i) => !r.outcomes[i]!.hit);
    if (!missed.length) continue;
    log(`  questions ${r.label} missed (${missed.length}), with its top 3:`);
    for (const q of missed) {
      const top = r.outcomes[questions.indexOf(q)]!.top.slice(0, 3);
      const shown = top.map((t) => {
        const c = byKey.get(chunkKey(t.itemId, t.position));
        return `${c?.itemName ?? t.itemId}#${t.position} (${t.score.toPrecision(3)})`;
      });
      log(`    "${q.question}" ${JSON.stringify(q.needle)} → ${shown.join(", ") || "nothing"}`);
    }
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    fs.rmSync(TMP, { recursive: true, force: true });
    process.exit(130);
  });
}

// The queue's connections are closed before the scratch database is dropped.
withScratchDb("bench_quality", () => main().finally(stopBoss))
  .catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(TMP, { recursive: true, force: true }));
