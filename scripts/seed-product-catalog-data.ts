import Papa from "papaparse";
import type { CsvMapping } from "../lib/csv/schemas";

// The Product catalog demo's data: the Product entity's schema, whose fields make every kind of
// cell the Database panel shows (lib/space/table-columns.ts), and the CSV file the seed imports
// through the real importer, made from a fixed formula (no randomness: every run makes the same
// file) with a few rows the schema refuses, so the import shows failed rows.

export const PRODUCT_ENTITY = "Product";

export const PRODUCT_CATEGORIES = ["Kitchen", "Garden", "Office", "Outdoors", "Toys"] as const;
export const PRODUCT_TAGS = ["new", "sale", "eco", "bestseller", "limited"] as const;
export const PRODUCT_NAME_MAX = 40;

/** The entity file: one field per kind of cell (image, datetime, boolean, select, text, number, multiselect, json). */
export const PRODUCT_SCHEMA = `${JSON.stringify(
  {
    name: PRODUCT_ENTITY,
    type: "object",
    properties: {
      // A short text with a limit: its editor says "40 characters max".
      name: { type: "string", maxLength: PRODUCT_NAME_MAX },
      // Long text (over 50 characters): edited in a dialog.
      description: { type: "string" },
      // Named like an image: a thumbnail.
      imageUrl: { type: "string" },
      price: { type: "number", minimum: 0 },
      inStock: { type: "boolean" },
      category: { type: "string", enum: [...PRODUCT_CATEGORIES] },
      tags: { type: "array", items: { type: "string", enum: [...PRODUCT_TAGS] } },
      releasedAt: { type: "string", format: "date-time" },
      dimensions: {
        type: "object",
        properties: {
          width: { type: "number" },
          height: { type: "number" },
          depth: { type: "number" },
          unit: { type: "string" },
        },
      },
    },
    required: ["name", "price", "category"],
    // A shop's catalog: anyone may read it, its admins change it.
    "x-accessControl": { permissions: { read: "anonymous", write: "admin" } },
  },
  null,
  2,
)}\n`;

/** The file's columns and the field each fills, as the import wizard's mapping step sends them. */
export const PRODUCT_CSV_MAPPING: CsvMapping[] = [
  { csvHeader: "SKU", schemaField: null, dataType: "text", splitCharacter: null },
  { csvHeader: "Name", schemaField: "name", dataType: "text", splitCharacter: null },
  { csvHeader: "Description", schemaField: "description", dataType: "text", splitCharacter: null },
  { csvHeader: "Image", schemaField: "imageUrl", dataType: "image", splitCharacter: null },
  { csvHeader: "Price", schemaField: "price", dataType: "number", splitCharacter: null },
  { csvHeader: "In stock", schemaField: "inStock", dataType: "boolean", splitCharacter: null },
  { csvHeader: "Category", schemaField: "category", dataType: "select", splitCharacter: null },
  { csvHeader: "Tags", schemaField: "tags", dataType: "multiselect", splitCharacter: "|" },
  { csvHeader: "Released", schemaField: "releasedAt", dataType: "datetime", splitCharacter: null },
  { csvHeader: "Dimensions", schemaField: "dimensions", dataType: "json", splitCharacter: null },
];

export const PRODUCT_ROWS = 150;

/** The rows (1-based, as the importer counts them) the schema refuses, and why. */
export const PRODUCT_BAD_ROWS = {
  // A category that is not one of the options.
  37: "category",
  // A name over the limit.
  88: "name",
  // No name at all (a required field).
  121: "required",
} as const;

const ADJECTIVES = ["Classic", "Compact", "Deluxe", "Everyday", "Folding", "Handmade", "Modern", "Rustic"];
const NOUNS: Record<(typeof PRODUCT_CATEGORIES)[number], string[]> = {
  Kitchen: ["Teapot", "Chef knife", "Spice rack", "Cutting board", "Coffee grinder", "Salad bowl"],
  Garden: ["Watering can", "Trowel", "Planter", "Bird feeder", "Hose reel", "Seed tray"],
  Office: ["Desk lamp", "Notebook", "Pen holder", "Monitor stand", "Stapler", "Letter tray"],
  Outdoors: ["Camping stove", "Hammock", "Lantern", "Trail pack", "Water bottle", "Tent peg set"],
  Toys: ["Wooden train", "Kite", "Puzzle cube", "Building blocks", "Spinning top", "Rag doll"],
};
const COLOURS: Record<(typeof PRODUCT_CATEGORIES)[number], string> = {
  Kitchen: "#f97316",
  Garden: "#16a34a",
  Office: "#2563eb",
  Outdoors: "#0d9488",
  Toys: "#db2777",
};

/** A small square picture (an SVG data URL: shown offline, no image host needed). */
export function productImage(category: (typeof PRODUCT_CATEGORIES)[number], initial: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="12" fill="${COLOURS[category]}"/>` +
    `<text x="32" y="42" font-family="sans-serif" font-size="28" font-weight="bold" fill="#fff" text-anchor="middle">${initial}</text>` +
    "</svg>";
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** Row i (1-based) of the file, a CSV row keyed by its headers. */
function productRow(i: number): Record<string, string> {
  const category = PRODUCT_CATEGORIES[i % PRODUCT_CATEGORIES.length]!;
  const nouns = NOUNS[category];
  const noun = nouns[Math.floor(i / PRODUCT_CATEGORIES.length) % nouns.length]!;
  const adjective = ADJECTIVES[(i * 7) % ADJECTIVES.length]!;
  const name = `${adjective} ${noun.toLowerCase()}`;
  // None to three tags, the next ones of the list from a start that moves with the row.
  const tagCount = i % 7 === 0 ? 0 : 1 + (i % 3);
  const tags = Array.from({ length: tagCount }, (_, t) => PRODUCT_TAGS[(i + t * 2) % PRODUCT_TAGS.length]!);
  // One day apart from the first of January 2025, at a time of day that moves with the row.
  const released = new Date(Date.UTC(2025, 0, 1, 8 + (i % 10), (i * 13) % 60) + i * 86_400_000);
  const row: Record<string, string> = {
    SKU: `SKU-${String(1000 + i)}`,
    Name: name,
    Description:
      `The ${name} from our ${category.toLowerCase()} range: built to last, easy to clean, ` +
      `and covered by a two-year warranty. Ships in recycled packaging.`,
    Image: productImage(category, noun[0]!.toUpperCase()),
    Price: (((i * 37) % 200) + 4.99).toFixed(2),
    "In stock": i % 4 === 0 ? "no" : "yes",
    Category: category,
    Tags: tags.join("|"),
    Released: released.toISOString(),
    Dimensions: JSON.stringify({
      width: 10 + (i % 30),
      height: 5 + (i % 17),
      depth: 3 + (i % 9),
      unit: "cm",
    }),
  };
  const bad = PRODUCT_BAD_ROWS[i as keyof typeof PRODUCT_BAD_ROWS];
  if (bad === "category") row.Category = "Garden gnomes";
  if (bad === "name") row.Name = `${name} with an extra long name nobody can read on a label`;
  if (bad === "required") row.Name = "";
  return row;
}

/** The demo file: a header line and PRODUCT_ROWS rows, the same on every run. */
export function productCsv(): string {
  const rows = Array.from({ length: PRODUCT_ROWS }, (_, i) => productRow(i + 1));
  return Papa.unparse(rows, { columns: PRODUCT_CSV_MAPPING.map((m) => m.csvHeader) });
}
