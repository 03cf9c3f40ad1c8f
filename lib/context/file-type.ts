import { inflateRawSync } from "node:zlib";

// What an uploaded context file is, from its bytes (spec 1 §5: CSV, PDF, Word .doc/.docx); its
// name only says what the builder meant it to be.

export type ContextFileKind = "csv" | "pdf" | "docx" | "doc";

/** The name each kind is called by in messages, and Word's two kinds count as one. */
export const KIND_LABELS: Record<ContextFileKind, string> = {
  csv: "CSV",
  pdf: "PDF",
  docx: "Word",
  doc: "Word",
};

export const KIND_MIME: Record<ContextFileKind, string> = {
  csv: "text/csv",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  doc: "application/msword",
};

/** The kind a file name asks for, by its extension; undefined for anything else. */
export function kindOfName(name: string): ContextFileKind | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(name)?.[1]?.toLowerCase();
  return ext === "csv" || ext === "pdf" || ext === "docx" || ext === "doc" ? ext : undefined;
}

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const ascii = (s: string) => Buffer.from(s, "latin1");

/** The kind the bytes are; undefined for anything we cannot ingest (a binary that is none of them). */
export function detectKind(bytes: Uint8Array): ContextFileKind | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // PDF readers accept the header anywhere in the first kilobyte.
  if (buf.subarray(0, 1024).includes(ascii("%PDF-"))) return "pdf";
  if (startsWith(bytes, OLE_MAGIC)) return "doc";
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // The entry names are stored as they are, so the main part's name shows in the bytes.
    return buf.includes(ascii("word/document.xml")) ? "docx" : undefined;
  }
  if (buf.includes(0)) return undefined;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return "csv";
  } catch {
    return undefined;
  }
}

/**
 * The total bytes of a ZIP once unpacked, each entry actually inflated with its output capped at
 * the size it declares: a ZIP bomb whose header lies stops at the declared size instead of
 * filling memory, and one that declares its real size is over `limit`. Throws "too-large" or
 * "unreadable".
 */
export function checkZipUnpackedSize(bytes: Uint8Array, limit: number): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > buf.length) throw new Error("unreadable");
  const entries = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw new Error("unreadable");
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    // 0xffffffff marks ZIP64 sizes: more than any Word document we accept.
    total += size;
    if (size === 0xffffffff || total > limit) throw new Error("too-large");
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new Error("unreadable");
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    if (method === 0) {
      if (compressed !== size) throw new Error("unreadable");
    } else if (method === 8) {
      let out: Buffer;
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
      } catch {
        // Over its declared size (a lying header) or broken data: nothing to read either way.
        throw new Error("unreadable");
      }
      if (out.length !== size) throw new Error("unreadable");
    } else {
      throw new Error("unreadable");
    }
  }
  return total;
}
