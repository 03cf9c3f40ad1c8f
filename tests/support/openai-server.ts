import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CSV_MAPPING_PROMPT_MARKER } from "../../lib/csv/mapping";
import {
  CONTINUE_INSTRUCTION,
  DISCUSS_MODE_LINE,
  SPACE_ASSISTANT_MARKER,
} from "../../lib/space/assistant-prompt";
import { DEMO_TASK_APP } from "../../lib/space/demo-task-app";
import { REPAIR_MARKER } from "../../lib/validation/repair-prompt";
import { demoRepair } from "./demo-repair";
import { readBody } from "./read-body";

// A small stand-in for a model provider, speaking the OpenAI-compatible HTTP API that the AI
// SDK's openai-compatible provider (and any other OpenAI client) uses: GET /v1/models and
// POST /v1/chat/completions, plain JSON or Server-Sent Events (`data: {chunk}` lines, usage in
// a last chunk when stream_options.include_usage, then `data: [DONE]`), Bearer keys and
// OpenAI's error objects. What the "model" says comes from a responder: tests script replies
// (a JSON object, an HTTP error, a slow answer); `npm run ai:dev` runs it with demoResponder.

/**
 * An image of a user message (an `image_url` part): a data: URL's media type and decoded size,
 * or, for an address, the URL alone (this server never fetches it).
 */
export type ChatImage = { url: string; mediaType: string | null; bytes: number | null };

/** A message: its text parts joined; the images of its image_url parts, in order, when it has any. */
export type ChatMessage = { role: string; content: string; images?: ChatImage[] };

/** One chat completion request, as the responder sees it. */
export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  /** The request body as sent. */
  body: Record<string, unknown>;
};

/**
 * What the model answers: its text; or an HTTP error with OpenAI's error object, and the
 * `retry-after-ms` header OpenAI sends with it when `retryAfterMs` is given (clients wait that
 * long before retrying). `delayMs` holds the answer back (for timeouts); a client that gives up
 * meanwhile gets nothing.
 */
export type ChatReply =
  | string
  | {
      text: string;
      finishReason?: "stop" | "length";
      delayMs?: number;
      /** Streaming: the pause before each word after the first (a slow model). */
      chunkDelayMs?: number;
      /** Streaming: the connection is destroyed after this many words, with no end (a dropped connection). */
      dropAfterChunks?: number;
      /**
       * Streaming: after this many words the model stalls until the client goes away (a stop), or
       * HOLD_MAX_MS have passed, then finishes: an answer that is surely still streaming when a
       * test stops it, however slow the machine.
       */
      holdAfterChunks?: number;
    }
  | { status: number; message?: string; retryAfterMs?: number; delayMs?: number };

export type Responder = (req: ChatRequest) => ChatReply | Promise<ChatReply>;

/** An entry of GET /v1/models; `name` as router services add it. */
export type ModelEntry = { id: string; name?: string; owned_by?: string };

export type RecordedRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
};

export type OpenAiServer = {
  /** The API base for AI_BASE_URL, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  apiKey: string;
  /** Every request the server received, in order (refused ones included). */
  requests: RecordedRequest[];
  /** Chat requests only, parsed. */
  chats: ChatRequest[];
  /** Chat requests whose client closed the connection before the answer was complete. */
  clientClosed: ChatRequest[];
  /** Replaces the responder; null restores the one the server started with. */
  setResponder(responder: Responder | null): void;
  /** Queues replies for the next chat requests, one each, before the responder is asked. */
  script(...replies: ChatReply[]): void;
  setModels(models: ModelEntry[]): void;
  /** Makes GET /v1/models fail (an HTTP status) or answer late; null: answer normally. */
  failModels(failure: { status?: number; delayMs?: number } | null): void;
  /** Forgets recorded requests and scripted replies. */
  reset(): void;
  close(): Promise<void>;
};

export const DEFAULT_SERVER_MODELS: ModelEntry[] = [
  { id: "gpt-4o-mini", name: "GPT-4o mini", owned_by: "local" },
  { id: "gpt-4o", name: "GPT-4o", owned_by: "local" },
  { id: "local-echo", name: "Local echo", owned_by: "local" },
];

/** The default responder: repeats the last user message, so a test can see what was sent. */
export const echoResponder: Responder = ({ messages }) => {
  const last = [...messages].reverse().find((m) => m.role === "user");
  return `Echo: ${last?.content ?? ""}`;
};

export async function startOpenAiServer(
  opts: {
    port?: number;
    host?: string;
    /** The key clients must send as `Authorization: Bearer`; default a random one. */
    apiKey?: string;
    responder?: Responder;
    models?: ModelEntry[];
    /** Called for every request; `record: false` keeps no list (a long-running demo server). */
    onRequest?: (r: RecordedRequest) => void;
    record?: boolean;
  } = {},
): Promise<OpenAiServer> {
  const apiKey = opts.apiKey ?? `sk-local-${crypto.randomBytes(12).toString("hex")}`;
  const initialResponder = opts.responder ?? echoResponder;
  let responder = initialResponder;
  let models = opts.models ?? DEFAULT_SERVER_MODELS;
  let modelsFailure: { status?: number; delayMs?: number } | null = null;
  const queue: ChatReply[] = [];
  const requests: RecordedRequest[] = [];
  const chats: ChatRequest[] = [];
  const clientClosed: ChatRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();

  // Answers late unless the client went away meanwhile; false when it did.
  const wait = (ms: number | undefined, res: http.ServerResponse) =>
    new Promise<boolean>((resolve) => {
      if (!ms) return resolve(true);
      const timer = setTimeout(() => {
        pending.delete(timer);
        resolve(!res.destroyed);
      }, ms);
      pending.add(timer);
      res.on("close", () => {
        if (!res.writableFinished) {
          clearTimeout(timer);
          pending.delete(timer);
          resolve(false);
        }
      });
    });

  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
    const raw = await readBody(req);
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const recorded = { method: req.method ?? "GET", path, authorization: req.headers.authorization, body };
    if (opts.record !== false) requests.push(recorded);
    opts.onRequest?.(recorded);

    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return sendError(res, 401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
    }

    if (req.method === "GET" && path === "/v1/models") {
      if (!(await wait(modelsFailure?.delayMs, res))) return;
      if (modelsFailure?.status)
        return sendError(res, modelsFailure.status, "The model list is unavailable.");
      const created = 1_700_000_000;
      return sendJson(res, 200, {
        object: "list",
        data: models.map((m) => ({ object: "model", created, owned_by: "local", ...m })),
      });
    }

    if (req.method === "POST" && path === "/v1/chat/completions") {
      const chat = parseChat(body);
      if (typeof chat === "string") return sendError(res, 400, chat, "invalid_request_error");
      if (opts.record !== false) chats.push(chat);
      res.on("close", () => {
        if (!res.writableFinished && opts.record !== false) clientClosed.push(chat);
      });
      let reply: ChatReply;
      try {
        reply = queue.length ? queue.shift()! : await responder(chat);
      } catch (err) {
        return sendError(res, 500, `The responder failed: ${(err as Error).message}`, "server_error");
      }
      const r = typeof reply === "string" ? { text: reply } : reply;
      if (!(await wait(r.delayMs, res))) return;
      if ("status" in r) {
        if (r.retryAfterMs !== undefined) res.setHeader("retry-after-ms", String(r.retryAfterMs));
        return sendError(res, r.status, r.message ?? `Upstream error ${r.status}`, "server_error");
      }
      return answerChat(res, chat, r.text, r.finishReason ?? "stop", r);
    }

    return sendError(res, 404, `Unknown endpoint ${req.method} ${path}`, "invalid_request_error");
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}/v1`,
    apiKey,
    requests,
    chats,
    clientClosed,
    setResponder: (r) => {
      responder = r ?? initialResponder;
    },
    script: (...replies) => {
      queue.push(...replies);
    },
    setModels: (list) => {
      models = list;
    },
    failModels: (failure) => {
      modelsFailure = failure;
    },
    reset: () => {
      requests.length = 0;
      chats.length = 0;
      clientClosed.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The variables that point the app at this server. */
export function openAiServerEnv(server: Pick<OpenAiServer, "url" | "apiKey">) {
  return { AI_BASE_URL: server.url, AI_API_KEY: server.apiKey };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendError(
  res: http.ServerResponse,
  status: number,
  message: string,
  type = "api_error",
  code?: string,
) {
  sendJson(res, status, { error: { message, type, param: null, code: code ?? null } });
}

/** The request as the responder sees it, or what is wrong with it (OpenAI answers 400). */
function parseChat(body: unknown): ChatRequest | string {
  if (!body || typeof body !== "object") return "The request body must be a JSON object.";
  const b = body as Record<string, unknown>;
  if (typeof b.model !== "string" || !b.model) return "you must provide a model parameter";
  if (!Array.isArray(b.messages) || b.messages.length === 0) return "'messages' must be a non-empty array";
  const messages: ChatMessage[] = [];
  for (const m of b.messages as unknown[]) {
    if (!m || typeof m !== "object" || typeof (m as { role?: unknown }).role !== "string") {
      return "Each message needs a role.";
    }
    const { role, content } = m as { role: string; content?: unknown };
    const images = imagesOf(content);
    if (typeof images === "string") return images;
    messages.push(
      images.length ? { role, content: textOf(content), images } : { role, content: textOf(content) },
    );
  }
  return { model: b.model, messages, stream: b.stream === true, body: b };
}

// Content is a string, or an array of parts of which the text ones count here.
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) =>
      p && typeof p === "object" && (p as { type?: unknown }).type === "text"
        ? String((p as { text?: unknown }).text ?? "")
        : "",
    )
    .join("");
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;

/** The image_url parts of a message's content, or what is wrong with one (OpenAI answers 400). */
function imagesOf(content: unknown): ChatImage[] | string {
  if (!Array.isArray(content)) return [];
  const images: ChatImage[] = [];
  for (const p of content) {
    if (!p || typeof p !== "object" || (p as { type?: unknown }).type !== "image_url") continue;
    const url = (p as { image_url?: { url?: unknown } }).image_url?.url;
    if (typeof url !== "string" || !url) return "Each image_url part needs an image_url.url.";
    if (!url.startsWith("data:")) {
      images.push({ url, mediaType: null, bytes: null });
      continue;
    }
    const m = DATA_URL.exec(url);
    if (!m || !m[1]!.startsWith("image/")) return "Invalid image URL: expected data:image/...;base64,...";
    images.push({ url, mediaType: m[1]!, bytes: Buffer.from(m[2]!, "base64").byteLength });
  }
  return images;
}

// A deterministic stand-in for a tokenizer: about four characters a token.
const tokens = (s: string) => Math.ceil(s.length / 4);
/** What an image costs in prompt tokens here (OpenAI's low-detail price). */
const IMAGE_TOKENS = 85;

const HOLD_MAX_MS = 120_000;

/** Resolves when the client closes the connection, or after HOLD_MAX_MS. */
function heldUntilClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, HOLD_MAX_MS);
    res.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function answerChat(
  res: http.ServerResponse,
  chat: ChatRequest,
  text: string,
  finishReason: "stop" | "length",
  pace: { chunkDelayMs?: number; dropAfterChunks?: number; holdAfterChunks?: number } = {},
) {
  const id = `chatcmpl-${crypto.randomBytes(8).toString("hex")}`;
  const created = Math.floor(Date.now() / 1000);
  const promptTokens = chat.messages.reduce(
    (n, m) => n + tokens(m.content) + 4 + (m.images?.length ?? 0) * IMAGE_TOKENS,
    0,
  );
  const completionTokens = tokens(text);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const base = { id, created, model: chat.model, system_fingerprint: "fp_local" };

  if (!chat.stream) {
    return sendJson(res, 200, {
      ...base,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: text, refusal: null },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage,
    });
  }

  const opts = chat.body.stream_options as { include_usage?: unknown } | undefined;
  const includeUsage = opts?.include_usage === true;
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  send(chunk({ role: "assistant", content: "", refusal: null }, null));
  // Word by word, as models stream, so clients see several deltas.
  let sent = 0;
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
    if (sent > 0 && pace.chunkDelayMs) await new Promise((r) => setTimeout(r, pace.chunkDelayMs));
    // The client went away meanwhile: nobody to answer.
    if (res.destroyed) return;
    if (pace.dropAfterChunks !== undefined && sent >= pace.dropAfterChunks) {
      // What was sent reaches the client first (a comment line, ignored by SSE readers, whose
      // callback runs once everything before it is flushed); then the connection just ends.
      await new Promise<void>((resolve) => res.write(": dropping\n\n", () => resolve()));
      res.socket?.destroy();
      return;
    }
    if (sent === pace.holdAfterChunks) await heldUntilClosed(res);
    if (res.destroyed) return;
    send(chunk({ content: piece }, null));
    sent++;
  }
  send(chunk({}, finishReason));
  if (includeUsage) send({ ...base, object: "chat.completion.chunk", choices: [], usage });
  res.end("data: [DONE]\n\n");
}

// ---- the demo model of `npm run ai:dev` ----

const words = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);

/**
 * Plausible answers without a real model, for demos: asked for a form field as a JSON
 * object (the builder's magicCreate), it builds one from the field name in the request;
 * anything else gets a short text.
 */
export const demoResponder: Responder = ({ model, messages }) => {
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
  const user = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  // A space app's chat assistant (lib/space/assistant-prompt.ts) before anything else: its prompt
  // speaks of JSON and fields too.
  if (system.startsWith(SPACE_ASSISTANT_MARKER)) return demoSpace(system, messages);
  // The repair of a space app's files (lib/validation/repair-prompt.ts): the fixes it can be sure of.
  if (system.startsWith(REPAIR_MARKER)) return demoRepair(user);
  // The CSV import's mapping (lib/csv/generate-mapping.ts): its prompt speaks of JSON and fields too.
  if (system.startsWith(CSV_MAPPING_PROMPT_MARKER)) return demoCsvMapping(system, user);
  if (/json/i.test(system) && /field/i.test(system)) return demoField(system, user);
  const topic = user.replace(/\s+/g, " ").trim().slice(0, 80);
  const answer = topic
    ? `Here is a short answer from the local demo model (${model}). You asked about: "${topic}". Connect a real model with AI_BASE_URL for real answers.`
    : `Hello from the local demo model (${model}).`;
  // A tool run grounded in the app's data (lib/runs/prompt.ts) gets it quoted back, so a demo
  // shows which data the answer was given.
  const excerpt = /<excerpt [^>]*>\n([\s\S]*?)\n<\/excerpt>/.exec(system)?.[1];
  const item = /items of the app's data[^\n]*\n1\. (.+)/.exec(system)?.[1];
  const cited = (excerpt ?? item)?.replace(/\s+/g, " ").trim().slice(0, 300);
  const withData = cited ? `${answer} From the app's data: "${cited}"` : answer;
  // A run with photos (lib/runs/prompt.ts): the demo says what it was shown.
  const seen = imagesSeen(messages);
  return seen ? `${withData} ${seen}` : withData;
};

/** "I received an image (image/png, 1234 bytes)." for the images of the last user message; "" without. */
export function imagesSeen(messages: ChatMessage[]): string {
  const images = [...messages].reverse().find((m) => m.role === "user")?.images ?? [];
  if (!images.length) return "";
  const each = images.map((i) =>
    i.bytes === null ? `an image at ${i.url.slice(0, 100)}` : `an image (${i.mediaType}, ${i.bytes} bytes)`,
  );
  return `I received ${each.join(" and ")}.`;
}

function demoField(system: string, user: string): string {
  const typed = /field name:\s*"?([^"\n]+)"?/i.exec(user)?.[1] ?? user.split("\n")[0] ?? "";
  const parts = words(typed).map((w) => w.toLowerCase());
  if (!parts.length) return JSON.stringify({ label: "Untitled" });
  const name = parts.join("_").slice(0, 60);
  const label = parts.map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w)).join(" ");
  const allowed = /allowed types:\s*([a-z_, ]+)/i
    .exec(system)?.[1]
    ?.split(/[,\s]+/)
    .filter(Boolean) ?? ["text"];
  const has = (re: RegExp) => re.test(name);
  let type = "text";
  if (has(/email/)) type = "email";
  else if (has(/height|tall/)) type = "height";
  else if (has(/weight/)) type = "weight";
  else if (has(/photo|picture|image|selfie/)) type = "photo";
  else if (has(/interests|hobbies|goals|skills|tags/)) type = "multiselect";
  else if (has(/size|level|type|category|color|colour|gender|plan|choice|goal/)) type = "select";
  else if (has(/description|notes|details|message|bio|story|question|feedback/)) type = "long_text";
  if (!allowed.includes(type)) type = "text";
  const field: Record<string, unknown> = {
    name,
    label,
    type,
    required: type === "email",
    instructions: `Ask for the user's ${label.toLowerCase()}.`,
  };
  if (type === "select" || type === "multiselect") {
    field.options = ["Option one", "Option two", "Option three"].map((l) => ({ label: l, iconUrl: null }));
  }
  return `Here is the field:\n\`\`\`json\n${JSON.stringify(field, null, 2)}\n\`\`\``;
}

/**
 * The CSV mapping by name likeness: a header fills the field whose name, letters and digits
 * only and lower-cased, equals it, contains it or is contained in it; multiselect columns split
 * on the separator their sample cells use.
 */
function demoCsvMapping(system: string, user: string): string {
  const fields = [...system.matchAll(/^- ([A-Za-z0-9_]+): ([a-z]+)$/gm)].map((m) => ({
    name: m[1]!,
    type: m[2]!,
  }));
  const headersLine = /^CSV headers: (.+)$/m.exec(user)?.[1];
  let headers: string[] = [];
  try {
    headers = JSON.parse(headersLine ?? "[]") as string[];
  } catch {}
  const samples = user
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .flatMap((l): Record<string, unknown>[] => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  const taken = new Set<string>();
  const mappings = headers.map((csvHeader) => {
    const h = squash(csvHeader);
    const field = h
      ? fields.find((f) => {
          const n = squash(f.name);
          return !taken.has(f.name) && n && (n === h || n.includes(h) || h.includes(n));
        })
      : undefined;
    if (field) taken.add(field.name);
    const cells = samples.map((row) => String(row[csvHeader] ?? ""));
    const split = [";", "|", "\t", "\n"].find((c) => cells.some((cell) => cell.includes(c))) ?? ",";
    return {
      csvHeader,
      schemaField: field?.name ?? null,
      dataType: field?.type ?? "text",
      splitCharacter: field?.type === "multiselect" ? split : null,
    };
  });
  return JSON.stringify({ mappings });
}

// ---- the demo assistant of a space app's chat (lib/space/chat-stream.ts) ----

/** The first answers to a message with this word fail (both attempts of the AI SDK); a retry succeeds. */
export const SPACE_FAIL_WORD = "fail";
/** A message with this word gets a long page, cut at the model's output cap ('Let's keep going' finishes it). */
export const SPACE_LONG_WORD = "long";
/** Model calls per message that fail before one succeeds: the SDK's attempt and its one retry. */
const SPACE_FAILED_CALLS = 2;
const spaceFailures = new Map<string, number>();

/** A request quoted in JSX: a string expression, so no character of it is markup. */
const jsxQuote = (s: string) => `{${JSON.stringify(s).replace(/</g, "\\u003c").replace(/>/g, "\\u003e")}}`;

const quoteOf = (request: string) => request.replace(/\s+/g, " ").trim().slice(0, 80) || "My app";

const headingLine = (request: string) =>
  `      <h1 className="text-3xl font-bold">${jsxQuote(quoteOf(request))}</h1>`;

function demoPage(request: string, long: boolean): string {
  const sections = long
    ? Array.from(
        { length: 60 },
        (_, i) =>
          `      <section className="mt-6"><h2 className="text-xl">Part ${i + 1}</h2><p>Section ${i + 1} of the long page, written by the local demo model.</p></section>`,
      )
    : [];
  return [
    "export default function Home() {",
    "  return (",
    '    <main className="mx-auto max-w-2xl p-8">',
    headingLine(request),
    '      <p className="mt-4 text-gray-600">Made by the local demo model. Connect a real model with AI_BASE_URL for real apps.</p>',
    ...sections,
    "    </main>",
    "  );",
    "}",
    "",
  ].join("\n");
}

// The demo task app's Task entity, on one line: what the plain "tasks" requests have always written.
const TASK_ENTITY = JSON.stringify(JSON.parse(DEMO_TASK_APP.entity.content));

const SAMPLE_TASKS = JSON.stringify([
  { title: "Buy milk", done: false },
  { title: "Call the plumber", done: true },
  { title: "Book the train", done: false },
]);

// The access levels by the labels the Database panel's presets send (messages.databaseAccessRequest).
const ACCESS_BY_LABEL: Record<string, string> = {
  anonymous: "anonymous",
  "every logged in user": "all",
  admin: "admin",
  creator: "creator",
  none: "none",
};

/**
 * An access preset of the Database panel ("Change the access of the Task entity: ... (read:
 * Admin, write: Anonymous)"): the entity's schema from the system prompt, its
 * x-accessControl.permissions replaced (edit_entity); null for any other request.
 */
function accessAnswer(request: string, system: string): string | null {
  const asked = /access of the (\w+) entity\b[\s\S]*\(read: ([^,]+), write: ([^)]+)\)/i.exec(request);
  if (!asked) return null;
  const [, name, readLabel, writeLabel] = asked as unknown as [string, string, string, string];
  const read = ACCESS_BY_LABEL[readLabel.trim().toLowerCase()];
  const write = ACCESS_BY_LABEL[writeLabel.trim().toLowerCase()];
  const file = new RegExp(`<file path="entities/${name}\\.json">\\n([\\s\\S]*?)</file>`).exec(system)?.[1];
  if (!read || !write || !file) return `I could not find the ${name} entity.`;
  const schema = JSON.parse(file) as Record<string, unknown>;
  schema["x-accessControl"] = { permissions: { read, write } };
  return [
    `I'll change who may read and write ${name}.`,
    `<action type="edit_entity" name="${name}">`,
    JSON.stringify(schema),
    "</action>",
    `${name}: read ${readLabel.trim()}, write ${writeLabel.trim()}.`,
  ].join("\n");
}

/**
 * A request for a task app ("Build a task board", "a to-do list app"): the demo writes the working
 * task list of lib/space/demo-task-app.ts, which reads and writes its records through @app/client.
 */
export const SPACE_TASK_APP_PATTERN = /\b(?:task|to-?do)[\s-]+(?:app|list|board|tracker)\b/i;

/**
 * A request for a webhook ("Add a webhook for my payment provider"): the demo asks for the secret
 * its callers must send (request_secrets) and writes functions/webhook.ts, which reads it from
 * the environment, refuses a caller without it, and says what it received.
 */
export const SPACE_WEBHOOK_PATTERN = /\bwebhooks?\b/i;
export const DEMO_WEBHOOK_SECRET = "WEBHOOK_SECRET";
export const DEMO_WEBHOOK_FUNCTION = "webhook";

const WEBHOOK_FUNCTION = `// A webhook: its caller proves who it is with the shared secret (header x-webhook-secret).
Deno.serve(async (req) => {
  const secret = Deno.env.get("${DEMO_WEBHOOK_SECRET}");
  if (!secret) return Response.json({ error: "${DEMO_WEBHOOK_SECRET} is not set" }, { status: 500 });
  if (req.headers.get("x-webhook-secret") !== secret) {
    return Response.json({ error: "Wrong or missing x-webhook-secret" }, { status: 401 });
  }
  const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
  return Response.json({ received: true, method: req.method, bytes: new TextEncoder().encode(body).length });
});
`;

function webhookAnswer(): string {
  const secrets = {
    secrets: [
      {
        secretName: DEMO_WEBHOOK_SECRET,
        description: "A long random string; the webhook's callers send it in the x-webhook-secret header",
      },
    ],
  };
  return [
    "Here is a webhook. Its callers must send a shared secret, which I need you to set.",
    `<action type="request_secrets">${JSON.stringify(secrets)}</action>`,
    `<action type="add_file" path="functions/${DEMO_WEBHOOK_FUNCTION}.ts">`,
    `${WEBHOOK_FUNCTION}</action>`,
    "Deploy it from the Functions panel; once the app is published it answers at its URL.",
  ].join("\n");
}

/** The demo task app: its entity (and sample tasks when asked), then its page. */
function taskAppAnswer(request: string): string {
  const { entity, page } = DEMO_TASK_APP;
  const samples = /\bsamples?\b/i.test(request)
    ? [`<action type="insert_entity_records" name="${entity.name}">`, SAMPLE_TASKS, "</action>"]
    : [];
  return [
    "I'll build a task board: a Task entity and a home page that lists, adds, completes and deletes tasks through the app's data client.",
    `<action type="add_entity" name="${entity.name}">`,
    `${entity.content}</action>`,
    ...samples,
    `<action type="add_file" path="${page.path}">`,
    `${page.content}</action>`,
    "Each signed-in user sees and changes only their own tasks; change the Task entity's access in the Database panel to share them.",
  ].join("\n");
}

/** The demo assistant's whole answer to a request, given the app's files in the system prompt. */
function spaceAnswer(request: string, system: string): string {
  const access = accessAnswer(request, system);
  if (access) return access;
  const long = new RegExp(`\\b${SPACE_LONG_WORD}\\b`, "i").test(request);
  if (!long && SPACE_TASK_APP_PATTERN.test(request)) return taskAppAnswer(request);
  if (!long && SPACE_WEBHOOK_PATTERN.test(request)) return webhookAnswer();
  const home = /<file path="pages\/Home\.jsx">\n([\s\S]*?)<\/file>/.exec(system)?.[1];
  const heading = home?.split("\n").find((l) => l.includes("<h1"));
  if (!long && heading && /^\s*(change|make|rename|update|set)\b/i.test(request)) {
    return [
      "I'll change the heading of the home page.",
      '<action type="partial_edit" path="pages/Home.jsx">',
      "<find>",
      heading,
      "</find>",
      "<replace>",
      headingLine(request),
      "</replace>",
      "</action>",
      `The home page now says "${quoteOf(request)}".`,
    ].join("\n");
  }
  const tasks = /\btasks?\b/i.test(request);
  const entity = tasks ? ['<action type="add_entity" name="Task">', TASK_ENTITY, "</action>"] : [];
  // "... sample tasks": three records of the entity too.
  if (tasks && /\bsamples?\b/i.test(request)) {
    entity.push('<action type="insert_entity_records" name="Task">', SAMPLE_TASKS, "</action>");
  }
  return [
    long ? "Here is a long home page for your request." : "Here is a home page for your request.",
    ...entity,
    '<action type="add_file" path="pages/Home.jsx">',
    `${demoPage(request, long)}</action>`,
    "Open the preview to see it.",
  ].join("\n");
}

/**
 * The space chat: a page quoting the request (add_file), or for "change ..." a partial_edit of its
 * heading, or for a task app (SPACE_TASK_APP_PATTERN) the demo task list, or for a webhook
 * (SPACE_WEBHOOK_PATTERN) a function with its secret; discuss mode answers in
 * prose; SPACE_LONG_WORD stops mid-file at the output cap, and the continuation request writes the
 * rest; SPACE_FAIL_WORD fails the first answer to that message.
 */
function demoSpace(system: string, messages: ChatMessage[]): ChatReply {
  const users = messages.filter((m) => m.role === "user");
  const last = users.at(-1)?.content ?? "";
  if (last === CONTINUE_INSTRUCTION) {
    // The rest of the cut answer: what follows the last words it wrote.
    const written = [...messages].reverse().find((m) => m.role === "assistant")?.content ?? "";
    const full = spaceAnswer(users.at(-2)?.content ?? "", system);
    if (written && full.startsWith(written)) return full.slice(written.length);
    // Written back with other spacing: the rest after its last words (long enough to be unique).
    const tail = written.slice(-200);
    const at = tail ? full.indexOf(tail) : -1;
    return at >= 0 ? full.slice(at + tail.length) : "\nI could not find where I stopped, sorry.";
  }
  if (system.includes(DISCUSS_MODE_LINE)) {
    return `Here is what I think about "${quoteOf(last)}": keep the page simple, then add one feature at a time. (Discuss mode: nothing was changed.)`;
  }
  if (new RegExp(`\\b${SPACE_FAIL_WORD}\\b`, "i").test(last)) {
    const failed = spaceFailures.get(last) ?? 0;
    if (failed < SPACE_FAILED_CALLS) {
      spaceFailures.set(last, failed + 1);
      if (spaceFailures.size > 1000) spaceFailures.delete(spaceFailures.keys().next().value!);
      // The AI SDK waits as long as retry-after-ms says before its retry: the demo fails fast.
      return { status: 500, message: "The demo model was asked to fail.", retryAfterMs: 10 };
    }
    spaceFailures.delete(last);
  }
  const full = spaceAnswer(last, system);
  if (new RegExp(`\\b${SPACE_LONG_WORD}\\b`, "i").test(last)) {
    // Cut in the middle of the page, as a model stopped by its output cap.
    const open = full.indexOf('<action type="add_file"');
    const close = full.indexOf("</action>", open);
    return { text: full.slice(0, Math.floor((open + close) / 2)), finishReason: "length" };
  }
  return full;
}
