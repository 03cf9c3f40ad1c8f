import fs from "node:fs";
import { PDFDocument, StandardFonts } from "pdf-lib";

// The files and words of the data-source benchmarks (bench/context.ts), made at bench time from a
// seeded generator, so every run measures the same bytes.

/** A small deterministic generator (mulberry32): the same seed gives the same files and queries. */
export function randomFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** English words that fill any text, most frequent first (stop words: search drops them, migration 0017). */
export const FUNCTION_WORDS = (
  "the of and to a in is for that it on with as are be this by or at from you your we our can " +
  "an will not all if which has more their one when each they was have any may after before " +
  "about into per up out also"
).split(" ");

/** The words of a business's documents: products, orders, policies. */
export const CONTENT_WORDS = (
  "order price product delivery shipping return refund customer account payment invoice " +
  "discount warranty support store item stock size color model service plan subscription " +
  "package tracking address email phone policy days week month year free standard express " +
  "international card credit bank transfer tax total cart checkout coupon code gift exchange " +
  "damaged missing late cancel change update contact team hours weekend holiday office " +
  "warehouse supplier brand quality material cotton leather steel wood glass plastic battery " +
  "charger cable screen keyboard mouse headphones speaker camera lens laptop tablet watch shoes " +
  "jacket shirt dress bag backpack wallet chair desk lamp sofa table bed mattress pillow " +
  "blanket kitchen coffee tea bottle cup plate knife pan oven fridge garden tool drill paint " +
  "bike helmet tent ski running yoga fitness protein vitamin skin cream shampoo soap perfume " +
  "toy game book pen paper printer ink router wireless bluetooth charging waterproof " +
  "lightweight durable organic recycled handmade premium compact portable adjustable black " +
  "white blue red green grey small medium large new sale limited edition bundle set pack pair " +
  "fast easy safe secure online mobile app login password reset question answer help guide " +
  "manual install setup repair replacement parts fee cost budget member loyalty points reward " +
  "review rating feedback"
).split(" ");

// Syllables for the long tail of rarer words (names, models, jargon) every real corpus has.
const SYLLABLES = (
  "ka lo mi ren tor vex zan qui pol dra nex sul bri fen gar hul jor kel mor nav pex rud sol tam " +
  "ulm vor wix yar"
).split(" ");

/** Deterministic rare words of two to four syllables, e.g. "vexkelo". */
export function tailWords(count: number): string[] {
  const words = new Set<string>();
  const rand = randomFrom(7);
  while (words.size < count) {
    const r = rand();
    const n = r < 0.3 ? 2 : r < 0.8 ? 3 : 4;
    let w = "";
    for (let i = 0; i < n; i++) w += pick(rand, SYLLABLES);
    words.add(w);
  }
  return [...words];
}

const CATEGORIES = (
  "Audio Computers Phones Kitchen Garden Outdoor Fitness Beauty Toys Books Office Furniture " +
  "Clothing Shoes Bags Lighting Tools Pets"
).split(" ");
const ADJECTIVES = CONTENT_WORDS.slice(CONTENT_WORDS.indexOf("wireless"), CONTENT_WORDS.indexOf("fast"));
const NOUNS = CONTENT_WORDS.slice(CONTENT_WORDS.indexOf("cotton"), CONTENT_WORDS.indexOf("wireless"));

const TAIL = tailWords(2000);

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const r = rand();
    out.push(r < 0.45 ? pick(rand, FUNCTION_WORDS) : r < 0.9 ? pick(rand, CONTENT_WORDS) : pick(rand, TAIL));
  }
  out[0] = out[0]![0]!.toUpperCase() + out[0]!.slice(1);
  return `${out.join(" ")}.`;
}

const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/**
 * An item list as builders upload it: a header and `rows` products (sku, name, category, price,
 * stock, description), about 115 bytes a row. Written in pieces, never held whole.
 */
export async function writeProductsCsv(file: string, rows: number, seed = 1): Promise<number> {
  const rand = randomFrom(seed);
  const out = fs.createWriteStream(file);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", () => r()));
  await write("sku,name,category,price,stock,description\n");
  let piece = "";
  for (let i = 1; i <= rows; i++) {
    const name = `${pick(rand, ADJECTIVES)} ${pick(rand, NOUNS)} ${pick(rand, TAIL)}`;
    const price = (5 + rand() * 495).toFixed(2);
    const description = sentence(rand, 7 + Math.floor(rand() * 8));
    piece += [
      `SKU-${String(i).padStart(6, "0")}`,
      csvCell(name),
      pick(rand, CATEGORIES),
      price,
      String(Math.floor(rand() * 500)),
      csvCell(description),
    ].join(",");
    piece += "\n";
    if (piece.length > 64 * 1024) {
      await write(piece);
      piece = "";
    }
  }
  await write(piece);
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return fs.statSync(file).size;
}

/** A report of `pages` pages, each a heading and about 40 lines of text. */
export async function makeReportPdf(pages: number, seed = 2): Promise<Uint8Array> {
  const rand = randomFrom(seed);
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Section ${p}: ${pick(rand, CATEGORIES)} ${pick(rand, NOUNS)}`, {
      x: 56,
      y: 740,
      size: 16,
      font,
    });
    let y = 712;
    let line = "";
    // Lines of at most ~95 characters, filled with sentences, until the page is full.
    while (y > 60) {
      const s = sentence(rand, 8 + Math.floor(rand() * 10));
      for (const word of s.split(" ")) {
        if (line.length + word.length + 1 > 95) {
          page.drawText(line, { x: 56, y, size: 10, font });
          y -= 16;
          line = "";
          if (y <= 60) break;
        }
        line = line ? `${line} ${word}` : word;
      }
    }
  }
  return doc.save();
}
