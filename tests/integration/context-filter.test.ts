import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { setContextItemStatus } from "@/db/queries/context";
import { contextItems, contextRows } from "@/db/schema";
import { findMatchingRows } from "@/lib/context/retrieve";
import { createBuilder } from "../support/factories";

// Smart items filtering (an input field's filterCondition, include or exclude): the CSV
// rows of an app whose column is, or is not, one of the values the end user gave.

type Builder = Awaited<ReturnType<typeof createBuilder>>;
const newApp = (b: Builder) => insertApp({ ownerAccountId: b.account.accountId, header: "Filter app" });

async function csvItem(
  appId: string,
  rows: Record<string, string>[],
  status: "synced" | "running" = "synced",
) {
  const [item] = await db()
    .insert(contextItems)
    .values({ appId, name: "list.csv", type: "csv", source: "local files", status, size: 1 })
    .returning();
  for (let start = 0; start < rows.length; start += 1000) {
    await db()
      .insert(contextRows)
      .values(
        rows
          .slice(start, start + 1000)
          .map((data, j) => ({ itemId: item!.id, appId, position: start + j, data })),
      );
  }
  return item!;
}

const MENU: Record<string, string>[] = [
  { name: "Green tea", colour: "Green", size: "Small" },
  { name: "Black tea", colour: "black", size: "Large" },
  { name: "Espresso", colour: "BROWN", size: "Small" },
  { name: "Latte", colour: "Beige", size: "Large" },
  { name: "Water", size: "Small" },
];
const names = (rows: { data: Record<string, string> }[]) => rows.map((r) => r.data.name);

describe("findMatchingRows", () => {
  it("include: the rows whose value is one of the values, case-insensitively, in list order", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    await csvItem(app.id, MENU);
    expect(
      names(
        await findMatchingRows(app.id, [{ column: "colour", values: ["green", "Brown"], mode: "include" }]),
      ),
    ).toEqual(["Green tea", "Espresso"]);
    // The column's name is matched without regard to case too; values without surrounding spaces.
    expect(
      names(await findMatchingRows(app.id, [{ column: "COLOUR", values: [" BLACK "], mode: "include" }])),
    ).toEqual(["Black tea"]);
    expect(
      await findMatchingRows(app.id, [{ column: "colour", values: ["purple"], mode: "include" }]),
    ).toEqual([]);
    // A part of a value is not the value.
    expect(await findMatchingRows(app.id, [{ column: "colour", values: ["gree"], mode: "include" }])).toEqual(
      [],
    );
  });

  it("exclude: the rows whose value is none of them, a row without the column included", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    await csvItem(app.id, MENU);
    expect(
      names(
        await findMatchingRows(app.id, [{ column: "colour", values: ["GREEN", "black"], mode: "exclude" }]),
      ),
    ).toEqual(["Espresso", "Latte", "Water"]);
  });

  it("every condition at once; a condition without values filters nothing; the limit holds", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const item = await csvItem(app.id, MENU);
    const rows = await findMatchingRows(app.id, [
      { column: "size", values: ["small"], mode: "include" },
      { column: "colour", values: ["brown"], mode: "exclude" },
      { column: "name", values: [], mode: "include" },
      { column: "name", values: ["  "], mode: "exclude" },
    ]);
    expect(rows).toEqual([
      { itemId: item.id, position: 0, data: MENU[0] },
      { itemId: item.id, position: 4, data: MENU[4] },
    ]);
    expect(await findMatchingRows(app.id, [])).toHaveLength(5);
    expect(await findMatchingRows(app.id, [], { limit: 2 })).toHaveLength(2);
    expect(await findMatchingRows(app.id, [], { limit: 0 })).toEqual([]);
  });

  it("values are data, never SQL or JSON syntax", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const odd = [{ name: `Quote " and \\ backslash`, note: "x'); drop table context_rows; --" }];
    await csvItem(app.id, odd);
    expect(
      names(
        await findMatchingRows(app.id, [
          { column: "name", values: [`quote " AND \\ backslash`], mode: "include" },
        ]),
      ),
    ).toEqual([odd[0]!.name]);
    expect(
      (await findMatchingRows(app.id, [{ column: "note", values: [odd[0]!.note], mode: "include" }])).length,
    ).toBe(1);
    expect(
      (await findMatchingRows(app.id, [{ column: `name" : "x`, values: ["y"], mode: "include" }])).length,
    ).toBe(0);
  });

  it("only this app's synced items: another app's rows and an item being re-ingested are left out", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const otherApp = await newApp(b);
    const mine = await csvItem(app.id, MENU);
    await csvItem(otherApp.id, [{ name: "Foreign tea", colour: "green" }]);
    const green = [{ column: "colour", values: ["green"], mode: "include" as const }];
    expect(names(await findMatchingRows(app.id, green))).toEqual(["Green tea"]);
    expect(names(await findMatchingRows(otherApp.id, green))).toEqual(["Foreign tea"]);
    await setContextItemStatus(mine.id, "running");
    expect(await findMatchingRows(app.id, green)).toEqual([]);
  });

  it("item by item in list order: the same rows as sorting every match, across items and limits", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    // Three lists added one after the other (list order is the items' order of addition), with a
    // common value (every 3rd row), a rarer one (every 97th) and one found in the last list only.
    const lists: { id: string; rows: Record<string, string>[] }[] = [];
    for (let n = 0; n < 3; n++) {
      const rows = Array.from({ length: 1500 }, (_, i) => ({
        name: `List ${n} row ${i}`,
        colour: i % 3 === 0 ? "Red" : i % 97 === 0 ? "Teal" : n === 2 && i % 5 === 1 ? "Lime" : "grey",
        size: i % 2 ? "Small" : "Large",
      }));
      lists.push({ id: (await csvItem(app.id, rows)).id, rows });
    }
    await db().execute(sql`analyze context_rows`);
    const expected = (keep: (r: Record<string, string>) => boolean, limit: number) =>
      lists
        .flatMap((l) => l.rows.map((data, position) => ({ itemId: l.id, position, data })))
        .filter((r) => keep(r.data))
        .slice(0, limit);
    const cases: {
      conditions: Parameters<typeof findMatchingRows>[1];
      keep: (r: Record<string, string>) => boolean;
    }[] = [
      {
        conditions: [{ column: "colour", values: ["red"], mode: "include" }],
        keep: (r) => r.colour === "Red",
      },
      {
        conditions: [{ column: "colour", values: ["teal"], mode: "include" }],
        keep: (r) => r.colour === "Teal",
      },
      {
        conditions: [{ column: "colour", values: ["lime"], mode: "include" }],
        keep: (r) => r.colour === "Lime",
      },
      {
        conditions: [
          { column: "colour", values: ["red", "teal"], mode: "exclude" },
          { column: "size", values: ["small"], mode: "include" },
        ],
        keep: (r) => r.colour !== "Red" && r.colour !== "Teal" && r.size === "Small",
      },
      { conditions: [], keep: () => true },
    ];
    for (const c of cases) {
      // 50 (within the first list), 600 (past the first list for the common value), 1000 (the most).
      for (const limit of [50, 600, 1000]) {
        expect(await findMatchingRows(app.id, c.conditions, { limit })).toEqual(expected(c.keep, limit));
      }
    }
  });

  it("an include condition is answered from the GIN index of the lowered rows", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    await csvItem(
      app.id,
      Array.from({ length: 20_000 }, (_, i) => ({ name: `Item ${i}`, colour: i === 1234 ? "Teal" : "grey" })),
    );
    // As autovacuum leaves a table: statistics, and the GIN's pending list of new rows merged.
    await db().execute(sql`vacuum analyze context_rows`);
    // The statistics count each index's scans: the query's own statement must have used it.
    const scans = async () => {
      await db().execute(sql`select pg_stat_clear_snapshot()`);
      const res = await db().execute<{ n: string }>(
        sql`select idx_scan as n from pg_stat_user_indexes where indexrelname = 'context_rows_app_data_ci_idx'`,
      );
      return Number(res.rows[0]?.n ?? 0);
    };
    const before = await scans();
    const found = await findMatchingRows(app.id, [{ column: "colour", values: ["teal"], mode: "include" }]);
    expect(names(found)).toEqual(["Item 1234"]);
    await expect.poll(scans, { timeout: 5_000, interval: 200 }).toBeGreaterThan(before);
  });
});
