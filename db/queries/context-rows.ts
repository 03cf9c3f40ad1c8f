import { type SQL, sql } from "drizzle-orm";
import { db, type Executor } from "../client";

// Smart items filtering: the CSV rows of an app's data sources that meet a run's conditions.

/** One condition of smart items filtering: a column whose value is (include) or is not (exclude) one of these. */
export type RowCondition = { column: string; values: readonly string[]; mode: "include" | "exclude" };

export type MatchedRow = { itemId: string; position: number; data: Record<string, string> };

/**
 * The CSV rows of the app's synced items that meet every condition, compared case-insensitively,
 * in item and row order. A condition is containment (@>) in the lowered row (data_ci, indexed by
 * the GIN index context_rows_app_data_ci_idx beside app_id); an exclude condition keeps the rows
 * none of its values match, a row without the column included.
 *
 * Sorting every match of the app cost 360-735 ms at 1M rows for a common value or an exclude
 * condition (docs/data-sources.md, "Smart items filtering"): they are found in two ways instead,
 * chosen by what the index finds rather than by the planner's estimate, which prices the row
 * check far below its cost and judges every item by the average one (it could walk a large
 * item to its end for a rare value, or fetch an app's every match once per item):
 *  - with an include condition, the app's matches are first asked of the GIN index (app_id and
 *    the conditions), at most ROWS_PROBE_MAX + 1: when that is all of them they are sorted and
 *    answered (a rare value, two conditions);
 *  - otherwise (more matches, or only exclude conditions, or none), item by item, oldest first,
 *    each item's rows are walked in position order (its primary key) until its `limit`-th match,
 *    and the walk ends once the first items gave `limit` rows. The conditions are hidden from the
 *    planner there (`coalesce`: no index, an even selectivity), so that it always walks.
 * A value with just over ROWS_PROBE_MAX matches spread evenly over a 1M-row app is the slowest
 * case: some 50k rows walked for 50 matches (~50 ms); denser values stop sooner.
 */
export async function findMatchingContextRows(
  appId: string,
  conditions: readonly RowCondition[],
  limit: number,
  ex: Executor = db(),
): Promise<MatchedRow[]> {
  const lowered = sql`r.data_ci`;
  const anyOf = (c: RowCondition): SQL =>
    sql`(${sql.join(
      c.values.map((v) => sql`${lowered} @> jsonb_build_object(lower(${c.column}::text), lower(${v}::text))`),
      sql` or `,
    )})`;
  const filters = conditions.map((c) => (c.mode === "include" ? anyOf(c) : sql`not ${anyOf(c)}`));
  const where = filters.length ? sql`and ${sql.join(filters, sql` and `)}` : sql``;
  type Row = { item_id: string; position: number; data: Record<string, string> };
  const toRow = (r: Row): MatchedRow => ({ itemId: r.item_id, position: Number(r.position), data: r.data });

  if (conditions.some((c) => c.mode === "include")) {
    const probe = await ex.execute<{ found: string } & Partial<Row>>(sql`
      with found as materialized (
        select r.item_id, r.position, r.data
        from context_rows r
        where r.app_id = ${appId} ${where}
        limit ${ROWS_PROBE_MAX + 1}
      )
      select n.found, m.item_id, m.position, m.data
      from (select count(*) as found from found) n
      left join lateral (
        select f.item_id, f.position, f.data
        from found f
        join context_items i on i.id = f.item_id
        where i.app_id = ${appId} and i.status = 'synced'
        order by i.created_at, f.item_id, f.position
        limit ${limit}
      ) m on true`);
    if (Number(probe.rows[0]?.found ?? 0) <= ROWS_PROBE_MAX) {
      return probe.rows.flatMap((r) => (r.item_id ? [toRow(r as Row)] : []));
    }
  }

  const res = await ex.execute<Row>(sql`
    select m.item_id, m.position, m.data
    from context_items i
    cross join lateral (
      select r.item_id, r.position, r.data
      from context_rows r
      where r.item_id = i.id and coalesce(${filters.length ? sql.join(filters, sql` and `) : sql`true`}, false)
      order by r.position
      limit ${limit}
    ) m
    where i.app_id = ${appId} and i.status = 'synced'
    order by i.created_at, m.item_id, m.position
    limit ${limit}`);
  return res.rows.map(toRow);
}

// Matches of include conditions fetched from the GIN index before walking the items instead
// (findMatchingContextRows): up to this many are answered from it exactly (~5 µs each: a heap
// fetch and the recheck); past it a value is common enough for the walk to find `limit` soon.
const ROWS_PROBE_MAX = 1000;
