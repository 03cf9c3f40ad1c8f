import fs from "node:fs";
import Papa from "papaparse";
import { randomFrom } from "./context-fixtures";
import type { DatasetFile } from "./quality-datasets";

// The factual questions of the retrieval-quality benchmark about the dataset CSVs, written as an
// end user types them and built from the rows themselves (picked with fixed seeds), so every
// answer is right. A question's needle is the cell values the row that answers it holds: a chunk
// holding all of them is the right excerpt.

export type DocumentKind = "csv" | "pdf" | "docx";
export type Question = {
  question: string;
  /** Strings the right excerpt holds, all of them (compared case-insensitively). */
  needle: string[];
  /** The document the question is about (its item name). */
  document: string;
  kind: DocumentKind;
};

type Row = Record<string, string>;

function readRows(file: string): Row[] {
  const parsed = Papa.parse<Row>(fs.readFileSync(file, "utf8"), { header: true, skipEmptyLines: "greedy" });
  return parsed.data;
}

/**
 * `count` rows meeting `ok`, picked at random with a fixed seed, no two with the same `distinct`
 * key (by default the row itself), nor a key already in `taken` (which they are added to).
 */
function pickRows(
  rows: Row[],
  count: number,
  seed: number,
  ok: (r: Row) => boolean = () => true,
  distinct: (r: Row) => unknown = (r) => r,
  taken = new Set<unknown>(),
): Row[] {
  const rand = randomFrom(seed);
  const picked: Row[] = [];
  for (let tries = 0; picked.length < count && tries < 100_000; tries++) {
    const row = rows[Math.floor(rand() * rows.length)]!;
    if (!ok(row) || taken.has(distinct(row))) continue;
    taken.add(distinct(row));
    picked.push(row);
  }
  if (picked.length < count) throw new Error(`only ${picked.length} of ${count} rows fit`);
  return picked;
}

/** How many rows have each value of `key(row)`: a question must name a row that only one matches. */
function counts(rows: Row[], key: (r: Row) => string): Map<string, number> {
  const n = new Map<string, number>();
  for (const r of rows) n.set(key(r), (n.get(key(r)) ?? 0) + 1);
  return n;
}

type Builder = (rows: Row[], document: string) => Omit<Question, "document" | "kind">[];

const BUILDERS: Record<DatasetFile, Builder> = {
  "zipcodes.csv": (rows) => {
    const byZip = new Map(rows.map((r) => [r.zip_code!, r]));
    const places = counts(rows, (r) => `${r.city}|${r.state}`);
    // The issue's own example first.
    const zips = [byZip.get("12414")!, ...pickRows(rows, 4, 101, (r) => r.zip_code !== "12414")];
    const unique = pickRows(rows, 2, 102, (r) => places.get(`${r.city}|${r.state}`) === 1);
    return [
      ...zips.map((r) => ({
        question: `Which city has the zip code ${r.zip_code}?`,
        needle: [r.zip_code!, r.city!],
      })),
      ...unique.map((r) => ({
        question: `What is the zip code of ${r.city}, ${r.state}?`,
        needle: [r.zip_code!, r.city!],
      })),
    ];
  },
  "airports.csv": (rows) => {
    const names = counts(rows, (r) => r.name!);
    const ok = (r: Row) => names.get(r.name!) === 1 && r.name!.length > 4;
    return [
      ...pickRows(rows, 3, 201, ok).map((r) => ({
        question: `What is the IATA code of ${r.name} airport in ${r.city}, ${r.state}?`,
        needle: [r.iata!, r.name!],
      })),
      ...pickRows(rows, 2, 202, ok).map((r) => ({
        question: `Which airport has the code ${r.iata}?`,
        needle: [r.iata!, r.name!],
      })),
    ];
  },
  "species.csv": (rows) => {
    const rowsOf = counts(rows, (r) => `${r.common_name}|${r.county_id}`);
    // Four species, each with a row per county: one question per species about the species itself.
    const species = (r: Row) => r.common_name;
    const taken = new Set<unknown>();
    return [
      ...pickRows(rows, 2, 301, undefined, species, taken).map((r) => ({
        question: `What is the scientific name of the ${r.common_name}?`,
        needle: [r.common_name!, r.scientific_name!],
      })),
      ...pickRows(rows, 2, 302, undefined, species, taken).map((r) => ({
        question: `Which species has the GAP species code ${r.gap_species_code}?`,
        needle: [r.gap_species_code!, r.common_name!],
      })),
      // Its rows differ by county: a question naming one of some 3,000 counties.
      ...pickRows(rows, 2, 303, (r) => rowsOf.get(`${r.common_name}|${r.county_id}`) === 1, species).map(
        (r) => ({
          question: `What share of county ${r.county_id} is year-round habitat of the ${r.common_name}?`,
          needle: [r.common_name!, r.county_id!, r.habitat_yearround_pct!],
        }),
      ),
    ];
  },
  "birdstrikes.csv": (rows) => {
    const key = (r: Row) => `${r["Airport Name"]}|${r["Flight Date"]}`;
    const strikes = counts(rows, key);
    const ok = (r: Row) =>
      strikes.get(key(r)) === 1 &&
      r["Airport Name"] !== "UNKNOWN" &&
      !/unknown/i.test(r["Wildlife Species"]!) &&
      !/unknown/i.test(r["Aircraft Make Model"]!);
    return [
      ...pickRows(rows, 3, 401, ok).map((r) => ({
        question: `What aircraft hit a bird at ${r["Airport Name"]} on ${r["Flight Date"]}?`,
        needle: [r["Airport Name"]!, r["Flight Date"]!, r["Aircraft Make Model"]!],
      })),
      ...pickRows(rows, 2, 402, ok).map((r) => ({
        question: `Which wildlife species struck the ${r["Aircraft Make Model"]} at ${r["Airport Name"]} on ${r["Flight Date"]}?`,
        needle: [r["Airport Name"]!, r["Flight Date"]!, r["Wildlife Species"]!],
      })),
    ];
  },
  "flights-airport.csv": (rows) =>
    pickRows(rows, 3, 501, (r) => Number(r.count) >= 100).map((r) => ({
      question: `How many flights went from ${r.origin} to ${r.destination}?`,
      needle: [r.origin!, r.destination!, r.count!],
    })),
  "seattle-weather.csv": (rows) =>
    pickRows(rows, 3, 601).map((r) => ({
      question: `What was the weather in Seattle on ${r.date}?`,
      needle: [r.date!, r.weather!, r.temp_max!],
    })),
  "disasters.csv": (rows) =>
    pickRows(rows, 3, 701, (r) => Number(r.Deaths) >= 1000 && r.Entity !== "All natural disasters").map(
      (r) => ({
        question: `How many people died in ${r.Entity!.toLowerCase()} in ${r.Year}?`,
        needle: [r.Entity!, r.Year!, r.Deaths!],
      }),
    ),
  "stocks.csv": (rows) =>
    pickRows(rows, 3, 801).map((r) => ({
      question: `What was the ${r.symbol} stock price on ${r.date}?`,
      needle: [r.symbol!, r.date!, r.price!],
    })),
  "us-employment.csv": (rows) =>
    pickRows(rows, 2, 901).map((r) => ({
      question: `How many nonfarm jobs did the US count in the month of ${r.month}?`,
      needle: [r.month!, r.nonfarm!],
    })),
  "gapminder-health-income.csv": (rows) => [
    ...pickRows(rows, 2, 1001).map((r) => ({
      question: `What is the income per person in ${r.country}?`,
      needle: [r.country!, r.income!],
    })),
    ...pickRows(rows, 1, 1002).map((r) => ({
      question: `What is the health score of ${r.country}?`,
      needle: [r.country!, r.health!],
    })),
  ],
  "la-riots.csv": (rows) => [
    ...pickRows(rows, 2, 1101, (r) => Boolean(r.address)).map((r) => ({
      question: `Where did ${r.first_name} ${r.last_name} die?`,
      needle: [r.last_name!, r.address!],
    })),
    ...pickRows(rows, 1, 1102, (r) => Boolean(r.age)).map((r) => ({
      question: `How old was ${r.first_name} ${r.last_name}?`,
      needle: [r.first_name!, r.last_name!, r.age!],
    })),
  ],
  // Hourly counts of small numbers: no row has a value a question could name alone.
  "github.csv": () => [],
};

/** The questions about one dataset CSV (its file name is its item name). */
export function csvQuestions(file: DatasetFile, filePath: string): Question[] {
  return BUILDERS[file](readRows(filePath), file).map((q) => ({ ...q, document: file, kind: "csv" }));
}
