import crypto from "node:crypto";
import { closeDb, db } from "../db/client";
import { insertAccountIfMissing } from "../db/queries/accounts";
import { insertApp } from "../db/queries/apps";
import { setContextItemStatus } from "../db/queries/context";
import { writeItemContent } from "../db/queries/context-content";
import { insertSession } from "../db/queries/sessions";
import { insertUser } from "../db/queries/users";
import { type App, appSettings, contextItems, type User } from "../db/schema";
import type { AppSettings } from "../lib/apps/schemas";
import { claimsFor } from "../lib/auth/claims";
import { encodeBearerToken } from "../lib/auth/session-token";
import { USER_RUN_LIMIT_MAX } from "../lib/constants";
import { type OpenAiServer, openAiServerEnv, startOpenAiServer } from "../tests/support/openai-server";
import { CONTENT_WORDS, FUNCTION_WORDS, randomFrom, tailWords } from "./context-fixtures";
import type { NextServer } from "./next-server";
import { median, percentile } from "./stats";

// The first-byte overhead of a tool run: the time to the first text-delta of
// POST /api/apps/{appId}/run on the production server, minus the time to the first word of the
// same stream asked of the model server directly (the local OpenAI-compatible server of the tests,
// tests/support/openai-server.ts, in this process: the body the route sent it, replayed as is).
// The difference is what the run costs before the user reads a word: session, app and settings,
// input checks, grounding (retrieval over the app's chunks), the slot's reservation, the AI SDK,
// and one more local HTTP hop. Goal: ≤ 15 ms, p50 and p95. Two cases:
//  - a visitor of a tool with default grounding over an app of 200 chunks (no limits);
//  - a signed-in end user of the same tool with daily and weekly limits on: the reservation takes
//    the advisory lock and sums the user's credits of the day and the week.
// One request at a time (latency, not throughput); direct and routed alternate, in turn first.
// BENCH_RUN_SAMPLES (pairs per case, default 300).

const SAMPLES = Number(process.env.BENCH_RUN_SAMPLES ?? 300);
const WARMUP = 100;
const ROUNDS = 3;
const GOAL_MS = 15;
const ITEMS = 5;
const CHUNKS_PER_ITEM = 40;
const CHUNK_CHARS = 1000;
const ANSWER = "You can return a damaged helmet within 30 days for a full refund, shipping included.";
const INPUTS = {
  input: "What is your refund policy for a damaged bike helmet I ordered last week?",
  bike: "Electric city bike",
};
const CONTENT = {
  gptPrompt:
    "You answer the customers of a bike shop, from the shop's data only. The customer rides a [bike]. " +
    "Be short and friendly; say so when the data does not answer the question.",
  fields: [{ name: "bike", label: "Your bike", type: "text", required: true, options: [] }],
  inputLabel: "Your question",
};

type Case = { label: string; appId: string; headers: (i: number) => Record<string, string> };
type Pair = { routed: number; direct: number; asked: number };

const log = (line = "") => console.log(line);

/** Sentences of the bench's business vocabulary (bench/context-fixtures.ts), about CHUNK_CHARS a chunk. */
function chunkTexts(count: number): string[] {
  const rand = randomFrom(11);
  const tail = tailWords(2000);
  const word = () => {
    const r = rand();
    const list = r < 0.55 ? FUNCTION_WORDS : r < 0.9 ? CONTENT_WORDS : tail;
    return list[Math.floor(rand() * list.length)]!;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "";
    while (text.length < CHUNK_CHARS) {
      const words = Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(" ");
      text += `${words[0]!.toUpperCase()}${words.slice(1)}. `;
    }
    out.push(text.trim());
  }
  return out;
}

async function newUser(tenantId: string | null, label: string): Promise<User> {
  return (await insertUser({
    tenantId,
    email: `bench-${label}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    emailVerifiedAt: new Date(),
  }))!;
}

/** A bearer token of a fresh server-side session, as a sign-in opens one. */
async function tokenOf(user: User): Promise<string> {
  const session = await insertSession({ userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) });
  return encodeBearerToken(claimsFor(user, session.id));
}

/** A published single-tool app with its settings and the same 200 synced chunks. */
async function groundedApp(ownerAccountId: string, header: string, settings: Partial<AppSettings>) {
  const app: App = await insertApp({ ownerAccountId, status: "active", header, content: CONTENT });
  await db().insert(appSettings).values({ appId: app.id, settings });
  const texts = chunkTexts(ITEMS * CHUNKS_PER_ITEM);
  for (let i = 0; i < ITEMS; i++) {
    const [item] = await db()
      .insert(contextItems)
      .values({
        appId: app.id,
        name: `shop-data-${i + 1}.txt`,
        type: "txt",
        source: "local files",
        status: "running",
        size: 1,
      })
      .returning();
    const own = texts.slice(i * CHUNKS_PER_ITEM, (i + 1) * CHUNKS_PER_ITEM);
    // As an ingestion writes them: chunks and BM25's statistics together.
    await writeItemContent(item!, async (writer, tx) => {
      await writer.addChunks(own);
      await writer.flush();
      await setContextItemStatus(item!.id, "synced", {}, tx);
    });
  }
  return app;
}

async function seed(): Promise<Case[]> {
  const builder = await newUser(null, "run-builder");
  const account = await insertAccountIfMissing({ userId: builder.id, accountType: "builder", appId: null });
  const open = await groundedApp(account.accountId, "Bike shop help", {});
  const limited = await groundedApp(account.accountId, "Bike shop help (members)", {
    isSignupEnabled: true,
    dailyUserLimit: USER_RUN_LIMIT_MAX,
    weeklyUserLimit: USER_RUN_LIMIT_MAX,
  });
  // A user may run USER_RUN_LIMIT_MAX times a day at the most: enough users for every run, each
  // used until its limit is all but spent (its sums then cover many runs, as a regular's would).
  // Run i (0 to WARMUP + SAMPLES) is user floor(i / USER_RUN_LIMIT_MAX)'s.
  const tokens: string[] = [];
  for (let i = 0; i <= Math.floor((WARMUP + SAMPLES) / USER_RUN_LIMIT_MAX); i++) {
    const user = await newUser(limited.id, "run-user");
    await insertAccountIfMissing({ userId: user.id, accountType: "other", appId: limited.id });
    tokens.push(await tokenOf(user));
  }
  await closeDb();
  return [
    {
      label: `visitor, default grounding over ${ITEMS * CHUNKS_PER_ITEM} chunks, no limits`,
      appId: open.id,
      headers: () => ({}),
    },
    {
      label: "signed-in end user, same grounding, daily and weekly limits on (advisory lock)",
      appId: limited.id,
      headers: (i) => ({ authorization: `Bearer ${tokens[Math.floor(i / USER_RUN_LIMIT_MAX)]}` }),
    },
  ];
}

/**
 * Reads a Server-Sent Events answer to its end; the time (from `started`) at which the first
 * event that `isFirst` accepts arrived, and the whole text.
 */
async function readEvents(
  res: Response,
  started: number,
  isFirst: (data: string) => boolean,
): Promise<{ first: number | null; text: string }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let scanned = 0;
  let first: number | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (first !== null) continue;
    for (let end = text.indexOf("\n\n", scanned); end >= 0; end = text.indexOf("\n\n", scanned)) {
      const event = text.slice(scanned, end);
      scanned = end + 2;
      if (event.startsWith("data: ") && isFirst(event.slice(6))) {
        first = performance.now() - started;
        break;
      }
    }
  }
  return { first, text };
}

const isTextDelta = (data: string) => data !== "[DONE]" && JSON.parse(data).type === "text-delta";
const isFirstWord = (data: string) =>
  data !== "[DONE]" && Boolean(JSON.parse(data).choices?.[0]?.delta?.content);

async function routed(server: NextServer, c: Case, i: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/apps/${c.appId}/run`, {
    method: "POST",
    headers: { "content-type": "application/json", ...c.headers(i) },
    body: JSON.stringify({ inputs: INPUTS }),
  });
  const { first, text } = await readEvents(res, started, isTextDelta);
  // Every measured run is a real, whole answer.
  if (
    res.status !== 200 ||
    first === null ||
    !text.includes('"type":"finish"') ||
    !text.endsWith("data: [DONE]\n\n")
  ) {
    throw new Error(`${c.label}: the run answered ${res.status}: ${text.slice(0, 500)}\n${server.output()}`);
  }
  return first;
}

async function direct(model: OpenAiServer, body: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${model.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${model.apiKey}` },
    body,
  });
  const { first, text } = await readEvents(res, started, isFirstWord);
  if (res.status !== 200 || first === null) {
    throw new Error(`the model server answered ${res.status}: ${text.slice(0, 500)}`);
  }
  return first;
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

/**
 * Seeds the apps, starts the model server and then the app's server (through `startServer`, with
 * the variables that point it at the model), measures both cases and prints the figures.
 */
export async function runFirstByteBench(startServer: (env: Record<string, string>) => Promise<NextServer>) {
  const cases = await seed();
  // When the route's request reached the model, and what it asked (replayed for the direct stream).
  const asked = { at: 0, body: "" };
  const model = await startOpenAiServer({
    record: false,
    responder: () => ANSWER,
    onRequest: (r) => {
      if (!r.path.endsWith("/chat/completions")) return;
      asked.at = performance.now();
      asked.body = JSON.stringify(r.body);
    },
  });
  try {
    const server = await startServer(openAiServerEnv(model));
    try {
      log(
        `bench (runs): first byte, ${SAMPLES} pairs per case after ${WARMUP} of warm-up, one request at a time`,
      );
      const lines: string[] = [];
      for (const c of cases) {
        // The stream the route asks for, once: the direct requests replay it.
        asked.body = "";
        await routed(server, c, 0);
        const body = asked.body;
        if (!body) throw new Error(`${c.label}: the route never asked the model`);
        const pairs: Pair[] = [];
        for (let i = 0; i < WARMUP + SAMPLES; i++) {
          const runRouted = async () => {
            const started = performance.now();
            const first = await routed(server, c, i + 1);
            return { first, asked: asked.at - started };
          };
          const runDirect = () => direct(model, body);
          // Alternate the order so drift (caches, other work on the machine) hits both alike.
          let r: { first: number; asked: number };
          let d: number;
          if (i % 2 === 0) {
            r = await runRouted();
            d = await runDirect();
          } else {
            d = await runDirect();
            r = await runRouted();
          }
          if (i >= WARMUP) pairs.push({ routed: r.first, direct: d, asked: r.asked });
        }
        log(`  ${c.label}:`);
        const size = Math.ceil(pairs.length / ROUNDS);
        for (let round = 0; round < ROUNDS; round++) {
          const part = pairs.slice(round * size, (round + 1) * size);
          const over = part.map((p) => p.routed - p.direct);
          log(
            `    round ${round + 1}: overhead p50 ${ms(percentile(over, 50))}, p95 ${ms(percentile(over, 95))}` +
              ` (${part.length} pairs)`,
          );
        }
        lines.push(...report(c.label, pairs));
      }
      log("");
      for (const line of lines) log(line);
    } finally {
      await server.stop();
    }
  } finally {
    await model.close();
  }
}

function report(label: string, pairs: Pair[]): string[] {
  const routedMs = pairs.map((p) => p.routed);
  const directMs = pairs.map((p) => p.direct);
  const over = pairs.map((p) => p.routed - p.direct);
  const asked = pairs.map((p) => p.asked);
  const p50 = percentile(over, 50);
  const p95 = percentile(over, 95);
  const ratio = median(routedMs) / median(directMs);
  const verdict =
    p50 <= GOAL_MS && p95 <= GOAL_MS
      ? `meets the goal (≤ ${GOAL_MS} ms) at p50 and p95`
      : p50 <= GOAL_MS
        ? `meets the goal (≤ ${GOAL_MS} ms) at p50, ABOVE it at p95`
        : `ABOVE the goal (≤ ${GOAL_MS} ms)`;
  return [
    `run first byte, ${label}:`,
    `  POST /api/apps/{appId}/run to the first text-delta: p50 ${ms(percentile(routedMs, 50))}, p95 ${ms(percentile(routedMs, 95))}`,
    `  the model server asked directly, to its first word (baseline): p50 ${ms(percentile(directMs, 50))}, p95 ${ms(percentile(directMs, 95))}`,
    `  of the route's time, before the model was asked (session, app, inputs, grounding, reservation): ` +
      `p50 ${ms(percentile(asked, 50))}, p95 ${ms(percentile(asked, 95))}`,
    `  overhead (route − direct, per pair): p50 ${ms(p50)}, p95 ${ms(p95)}; route ÷ direct ${ratio.toFixed(2)}× (p50) — ${verdict}`,
  ];
}
