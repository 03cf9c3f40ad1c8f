import { inflateRawSync } from "node:zlib";

// The parts of a ZIP archive (a Word .docx is one), read from its central directory. Plain
// JavaScript: the parsing worker (worker.mjs) loads it as it is, and the server imports it too.

/** A part's name, how it is stored, its stated sizes and where its data starts. */
export function zipParts(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > buf.length) throw new Error("unreadable");
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const parts = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw new Error("unreadable");
    const nameLength = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new Error("unreadable");
    parts.push({
      name: buf.toString("utf8", at + 46, at + 46 + nameLength),
      method: buf.readUInt16LE(at + 10),
      compressed: buf.readUInt32LE(at + 20),
      // 0xffffffff marks ZIP64 sizes: more than any document we accept.
      size: buf.readUInt32LE(at + 24),
      start: local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28),
    });
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return parts;
}

/** The markup of a Word document (its text, styles, relations), not its pictures or fonts. */
export const isMarkupPart = (name) => /\.(xml|rels)$/i.test(name);

/**
 * The unpacked bytes of the archive's markup parts, as their headers state them; throws
 * "too-large" past `limit`, "unreadable" for an archive that is not one.
 */
export function statedMarkupSize(bytes, limit) {
  let total = 0;
  for (const part of zipParts(bytes)) {
    if (!isMarkupPart(part.name)) continue;
    total += part.size;
    if (part.size === 0xffffffff || total > limit) throw new Error("too-large");
  }
  return total;
}

/**
 * Unpacks each markup part with its output capped at the size its header states, so a part whose
 * header lies stops there instead of filling memory: an archive whose markup is not what it
 * states is refused ("unreadable"), and one that states too much is "too-large". The parser
 * then unpacks only parts checked here (pictures and fonts are never unpacked to read text).
 */
export function checkMarkupSize(bytes, limit) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  statedMarkupSize(bytes, limit);
  for (const part of zipParts(bytes)) {
    if (!isMarkupPart(part.name)) continue;
    const data = buf.subarray(part.start, part.start + part.compressed);
    if (part.method === 0) {
      if (part.compressed !== part.size) throw new Error("unreadable");
    } else if (part.method === 8) {
      let out;
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(part.size, 1) });
      } catch {
        // Over its stated size (a lying header) or broken data: nothing to read either way.
        throw new Error("unreadable");
      }
      if (out.length !== part.size) throw new Error("unreadable");
    } else {
      throw new Error("unreadable");
    }
  }
}
