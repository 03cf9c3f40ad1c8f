import { Readable } from "node:stream";
import { parentPort } from "node:worker_threads";
import { checkMarkupSize } from "./zip.mjs";

// The parsing worker: reads one document (a Word file, a PDF, a web page, a CSV) on a thread of
// its own, with a heap of its own, capped (lib/context/parse/run.ts starts it and ends it). Plain
// JavaScript loaded from its path, so the same file runs under the production build, tsx and the
// tests; the parsers come from node_modules.
//
// One job at a time: a message { op, ... } says what to read; the answer is { ok: true, value } or
// { ok: false, reason: "unreadable" | "too-large" }, and the worker may be given the next one. A
// CSV is read as a stream instead, and its worker is ended after it: the worker asks for input ({ type: "pull" }), the server answers with
// { type: "chunk", bytes } or { type: "end" }; each parsed piece's rows come back as
// { type: "rows", rows }, and the worker waits for { type: "resume" } before parsing on; the end
// is { type: "done" }.

class Refused extends Error {}

const PARSERS = {
  async docx({ bytes: buffer, markupLimit }) {
    const bytes = new Uint8Array(buffer);
    try {
      checkMarkupSize(bytes, markupLimit);
    } catch (err) {
      throw new Refused(err.message === "too-large" ? "too-large" : "unreadable");
    }
    const { readDocx } = await import("./docx-text.mjs");
    return readDocx(Buffer.from(bytes));
  },
  async pdf({ bytes }) {
    const { extractText } = await import("unpdf");
    return (await extractText(new Uint8Array(bytes), { mergePages: true })).text;
  },
  async html({ body, mediaType, url }) {
    const { readPage } = await import("./page-text.mjs");
    return readPage(body, mediaType, url);
  },
};

parentPort.on("message", async (job) => {
  if (job.op === "csv") return readCsv(job.lines !== false);
  if (!job.op) return;
  try {
    parentPort.postMessage({ ok: true, value: await PARSERS[job.op](job) });
  } catch (err) {
    parentPort.postMessage({ ok: false, reason: err instanceof Refused ? err.message : "unreadable" });
  }
});

/** `lines`: whether each row also comes with its "header: value; ..." line (a CSV import needs none). */
async function readCsv(lines) {
  const Papa = (await import("papaparse")).default;
  let resume;
  const input = new Readable({
    read() {
      parentPort.postMessage({ type: "pull" });
    },
  });
  parentPort.on("message", (message) => {
    if (message.type === "chunk") input.push(Buffer.from(message.bytes));
    else if (message.type === "end") input.push(null);
    else if (message.type === "resume") resume?.();
  });
  input.setEncoding("utf8");
  Papa.parse(input, {
    header: true,
    skipEmptyLines: "greedy",
    // A byte order mark is not part of the first column's name.
    transformHeader: (name, i) => (i === 0 ? name.replace(/^\uFEFF/, "") : name),
    chunk: (results) => {
      const rows = results.data.map((record) => csvRow(record, lines)).filter(Boolean);
      if (rows.length === 0) return;
      // The server stores these rows before the next piece is parsed: the worker holds one piece.
      input.pause();
      resume = () => {
        resume = undefined;
        input.resume();
      };
      parentPort.postMessage({ type: "rows", rows });
    },
    complete: () => parentPort.postMessage({ type: "done" }),
    error: () => parentPort.postMessage({ ok: false, reason: "unreadable" }),
  });
}

/**
 * A data row: { header: value }, and the line "header: value; ..." its chunks are cut from (when
 * `lines`; { data } alone otherwise: half as much to send). Undefined when no cell has a value.
 */
function csvRow(record, lines) {
  const data = {};
  const parts = [];
  let filled = false;
  for (const [name, value] of Object.entries(record)) {
    // Cells beyond the header's columns come under "__parsed_extra" as an array.
    const text = Array.isArray(value) ? value.join(", ") : String(value ?? "");
    data[name] = text;
    if (text.trim()) {
      filled = true;
      if (lines) parts.push(`${name}: ${text}`);
    }
  }
  if (!filled) return undefined;
  return lines ? { data, line: parts.join("; ") } : { data };
}
