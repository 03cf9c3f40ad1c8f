import "server-only";
import { Readable } from "node:stream";
import Papa from "papaparse";
import type { ContextItem } from "@/db/schema";
import type { MessageKey } from "@/lib/messages";
import { storage } from "@/lib/storage";
import { type ContextFileKind, checkZipUnpackedSize } from "./file-type";

/** Word documents unpack to a few times their size; past this one is a ZIP bomb, not a document. */
const DOCX_UNPACKED_MAX = 200 * 1024 * 1024;

/** A file that will never be read, however often it is tried: the job ends in Error at once. */
export class UnreadableFileError extends Error {
  constructor(
    readonly reason: MessageKey,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = "UnreadableFileError";
  }
}

export type ExtractedFile = { text: string; rows?: Record<string, string>[] };

/**
 * The text of an item's stored file (and a CSV's rows). A storage failure is thrown as it is (a
 * retry may cure it); a file that cannot be parsed throws UnreadableFileError.
 */
export async function extractFileText(item: Pick<ContextItem, "fileKey">): Promise<ExtractedFile> {
  const key = item.fileKey!;
  const kind = key.slice(key.lastIndexOf(".") + 1) as ContextFileKind;
  const object = await storage().get(key);
  if (!object) throw new UnreadableFileError("contextFileUnreadable");
  if (kind === "csv") return parseCsv(object.body);
  const bytes = new Uint8Array(await new Response(object.body).arrayBuffer());
  if (kind === "pdf") return { text: await pdfText(bytes) };
  if (kind === "docx") return { text: await docxText(bytes) };
  // mammoth reads only the ZIP-based .docx; the old binary .doc format has no reader here.
  throw new UnreadableFileError("contextDocUnreadable");
}

/**
 * Streams the CSV through papaparse: each data row becomes one line "header: value; ..." for the
 * chunks, and a row item { header: value } for the smart items filter.
 */
function parseCsv(body: ReadableStream<Uint8Array>): Promise<ExtractedFile> {
  // Decoded before papaparse sees it, so a character split across two reads stays whole.
  const input = Readable.fromWeb(body as never).setEncoding("utf8");
  const lines: string[] = [];
  const rows: Record<string, string>[] = [];
  return new Promise((resolve, reject) => {
    Papa.parse<Record<string, string>>(input as unknown as File, {
      header: true,
      skipEmptyLines: "greedy",
      // A byte order mark is not part of the first column's name.
      transformHeader: (name, i) => (i === 0 ? name.replace(/^\uFEFF/, "") : name),
      step: (result) => {
        const row: Record<string, string> = {};
        const parts: string[] = [];
        for (const [name, value] of Object.entries(result.data)) {
          // Cells beyond the header's columns come under "__parsed_extra" as an array.
          const text = Array.isArray(value) ? value.join(", ") : String(value ?? "");
          row[name] = text;
          if (text.trim()) parts.push(`${name}: ${text}`);
        }
        if (parts.length === 0) return;
        rows.push(row);
        lines.push(parts.join("; "));
      },
      complete: () => {
        if (rows.length === 0) reject(new UnreadableFileError("contextCsvNoRows"));
        else resolve({ text: lines.join("\n"), rows });
      },
      error: (err: Error) => reject(err),
    });
  });
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText } = await import("unpdf");
  try {
    return (await extractText(bytes, { mergePages: true })).text;
  } catch (err) {
    throw new UnreadableFileError("contextFileUnreadable", { cause: err });
  }
}

async function docxText(bytes: Uint8Array): Promise<string> {
  try {
    checkZipUnpackedSize(bytes, DOCX_UNPACKED_MAX);
  } catch (err) {
    const reason = (err as Error).message === "too-large" ? "contextDocxTooLarge" : "contextFileUnreadable";
    throw new UnreadableFileError(reason, { cause: err });
  }
  const mammoth = (await import("mammoth")).default;
  try {
    return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
  } catch (err) {
    throw new UnreadableFileError("contextFileUnreadable", { cause: err });
  }
}
