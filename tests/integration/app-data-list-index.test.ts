import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { type RecordListQuery, recordListQuery } from "@/db/queries/app-data";

// A page of the data client's list (GET .../data/{Entity}) is read from an index in the asked
// order. Sorted instead, a page of an entity of 1,000,000 records read every one of them
// (bench/app-data.ts: about a second, against under a millisecond from the index). The planner
// is told to avoid sequential scans and sorts: it still sorts when no index gives the order.

type PlanNode = { "Node Type": string; "Index Name"?: string; Plans?: PlanNode[] };

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

async function planOf(q: RecordListQuery): Promise<PlanNode[]> {
  return db().transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    await tx.execute(sql`SET LOCAL enable_sort = off`);
    await tx.execute(sql`SET LOCAL enable_incremental_sort = off`);
    const res = await tx.execute(sql`EXPLAIN (FORMAT JSON) ${recordListQuery(q, tx)}`);
    const [row] = res.rows as { "QUERY PLAN": [{ Plan: PlanNode }] }[];
    return nodes(row!["QUERY PLAN"][0].Plan);
  });
}

const base = (over: Partial<RecordListQuery>): RecordListQuery => ({
  appId: crypto.randomUUID(),
  entity: "Task",
  limit: 51,
  order: "createdAt",
  direction: "desc",
  after: null,
  ...over,
});

describe("the data client's list reads its page from an index, never sorts", () => {
  const after = { micros: "1764201600000000", id: crypto.randomUUID() };
  const cases: [string, Partial<RecordListQuery>][] = [];
  for (const order of ["createdAt", "updatedAt"] as const) {
    for (const direction of ["desc", "asc"] as const) {
      cases.push([`${order} ${direction}`, { order, direction }]);
      cases.push([`${order} ${direction}, after a cursor`, { order, direction, after }]);
    }
  }
  cases.push(["newest first, one equality filter", { contains: { category: "c7" } }]);
  cases.push(["newest first, a creator's own", { creatorId: crypto.randomUUID() }]);
  cases.push([
    "oldest first, a creator's own, filtered",
    { direction: "asc", creatorId: crypto.randomUUID(), contains: { done: true } },
  ]);

  it.each(cases)("%s", async (_label, over) => {
    const plan = await planOf(base(over));
    const types = plan.map((n) => n["Node Type"]);
    expect(
      types.filter((t) => t.includes("Sort")),
      JSON.stringify(types),
    ).toEqual([]);
    expect(
      plan.some((n) => n["Node Type"].startsWith("Index") && n["Index Name"]?.startsWith("entity_records_")),
    ).toBe(true);
  });
});
