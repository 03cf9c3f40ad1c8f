// What an uploaded file really is, from its bytes: names and declared types are the sender's
// word and count for nothing. Only these image types are accepted; anything else is refused.

export type ImageType = {
  /** The Content-Type the file is served with. */
  mime: string;
  /** The extension of its storage key. */
  ext: string;
};

export const IMAGE_TYPES = {
  png: { mime: "image/png", ext: "png" },
  jpeg: { mime: "image/jpeg", ext: "jpg" },
  gif: { mime: "image/gif", ext: "gif" },
  webp: { mime: "image/webp", ext: "webp" },
  avif: { mime: "image/avif", ext: "avif" },
  ico: { mime: "image/x-icon", ext: "ico" },
  bmp: { mime: "image/bmp", ext: "bmp" },
  svg: { mime: "image/svg+xml", ext: "svg" },
} as const satisfies Record<string, ImageType>;

/** The media types of the accepted images (an upload route's body, whatever type it declares, is sniffed). */
export const IMAGE_MEDIA_TYPES = Object.values(IMAGE_TYPES).map((t) => t.mime);

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const text4 = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));

/** The image type of `bytes`, or null when they are not one of the accepted images. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return IMAGE_TYPES.png;
  // SOI, then the first marker (0xFF and a marker byte).
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length >= 4) return IMAGE_TYPES.jpeg;
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return IMAGE_TYPES.gif;
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8) && bytes.length >= 16)
    return IMAGE_TYPES.webp;
  if (isAvif(bytes)) return IMAGE_TYPES.avif;
  if (isIco(bytes)) return IMAGE_TYPES.ico;
  if (isBmp(bytes)) return IMAGE_TYPES.bmp;
  if (isSvg(bytes)) return IMAGE_TYPES.svg;
  return null;
}

// ISO-BMFF: a leading `ftyp` box whose major or compatible brands name AVIF.
function isAvif(b: Uint8Array): boolean {
  if (b.length < 16 || text4(b, 4) !== "ftyp") return false;
  const boxSize = u32be(b, 0);
  if (boxSize < 16 || boxSize > b.length || boxSize % 4 !== 0) return false;
  const brands = [text4(b, 8)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(text4(b, at));
  return brands.some((brand) => brand === "avif" || brand === "avis");
}

// ICONDIR: reserved 0, type 1 (icon), a count, then 16-byte entries that must fit in the file.
function isIco(b: Uint8Array): boolean {
  if (b.length < 22 || u16(b, 0) !== 0 || u16(b, 2) !== 1) return false;
  const count = u16(b, 4);
  if (count === 0 || b.length < 6 + 16 * count) return false;
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    const size = u32(b, entry + 8);
    const offset = u32(b, entry + 12);
    if (b[entry + 3] !== 0 || size === 0 || offset < 6 + 16 * count || offset + size > b.length) return false;
  }
  return true;
}

// "BM" alone starts plenty of text; the reserved fields and a known DIB header size must follow.
const DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);
function isBmp(b: Uint8Array): boolean {
  if (b.length < 26 || !startsWith(b, ascii("BM"))) return false;
  const pixelsAt = u32(b, 10);
  return u32(b, 6) === 0 && DIB_HEADER_SIZES.has(u32(b, 14)) && pixelsAt >= 26 && pixelsAt <= b.length;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * SVG is text: valid UTF-8 whose first element is <svg>, after an optional byte-order mark,
 * whitespace, XML declaration, comments and a doctype. A doctype with an internal subset
 * (entity definitions) is refused, and so is any other processing instruction.
 */
function isSvg(b: Uint8Array): boolean {
  let text: string;
  try {
    text = utf8.decode(b);
  } catch {
    return false;
  }
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  skipSpace();
  if (text.startsWith("<?xml", i) && /[\s?]/.test(text[i + 5] ?? "")) {
    const end = text.indexOf("?>", i);
    if (end < 0) return false;
    i = end + 2;
  }
  let doctypeSeen = false;
  for (;;) {
    skipSpace();
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else if (!doctypeSeen && /^<!DOCTYPE\s/i.test(text.slice(i, i + 10))) {
      const end = text.indexOf(">", i);
      if (end < 0 || text.slice(i, end).includes("[")) return false;
      doctypeSeen = true;
      i = end + 1;
    } else break;
  }
  return /^<svg[\s>/]/.test(text.slice(i, i + 5));
}
