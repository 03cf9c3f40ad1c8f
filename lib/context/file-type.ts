// What an uploaded context file is, from its bytes (CSV, PDF, Word .doc/.docx are accepted); its
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

/**
 * The media types an upload may be sent as: the kinds' own, or none in particular (the editor
 * sends application/octet-stream). The kind is read from the bytes, never from this header.
 */
export const CONTEXT_FILE_MEDIA_TYPES = [...Object.values(KIND_MIME), "application/octet-stream"] as const;

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
