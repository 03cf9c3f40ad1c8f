import { and, desc, eq, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type EntityImport, entityImports, type ImportFailedRow } from "../schema";

// The CSV imports of space apps' entities (lib/app-data/csv-import.ts).

export async function createEntityImport(
  values: { appId: string; entity: string; creatorId: string | null; mapping: unknown[]; csv: string },
  ex: Executor = db(),
): Promise<EntityImport> {
  const [row] = await ex.insert(entityImports).values(values).returning();
  return row!;
}

export async function findEntityImport(
  appId: string,
  entity: string,
  id: string,
  ex: Executor = db(),
): Promise<EntityImport | undefined> {
  const [row] = await ex
    .select()
    .from(entityImports)
    .where(and(eq(entityImports.id, id), eq(entityImports.appId, appId), eq(entityImports.entity, entity)));
  return row;
}

/** The entity's newest import, if it has one (the demo seed imports its file once). */
export async function findLatestEntityImport(
  appId: string,
  entity: string,
  ex: Executor = db(),
): Promise<EntityImport | undefined> {
  const [row] = await ex
    .select()
    .from(entityImports)
    .where(and(eq(entityImports.appId, appId), eq(entityImports.entity, entity)))
    .orderBy(desc(entityImports.createdAt))
    .limit(1);
  return row;
}

export async function findEntityImportById(
  id: string,
  ex: Executor = db(),
): Promise<EntityImport | undefined> {
  const [row] = await ex.select().from(entityImports).where(eq(entityImports.id, id));
  return row;
}

export async function setEntityImportStatus(
  id: string,
  status: EntityImport["status"],
  values: { dropCsv?: boolean } = {},
  ex: Executor = db(),
): Promise<void> {
  await ex
    .update(entityImports)
    .set({
      status,
      ...(values.dropCsv ? { csv: null } : {}),
    })
    .where(eq(entityImports.id, id));
}

/**
 * Writes batch number `batch` (0-based): its records (each one's JSON text) and the import's
 * progress, in one transaction, only if the import has exactly `batch` batches in. Answers false
 * (nothing written) when the batch is already in: a retried job never doubles rows.
 */
export async function writeImportBatch(
  imp: { id: string; appId: string; entity: string; creatorId: string | null },
  batch: number,
  recordsJson: string[],
  failedRows: ImportFailedRow[],
  failedRowsMax: number,
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [claimed] = await tx
      .update(entityImports)
      .set({
        batches: batch + 1,
        total: sql`${entityImports.total} + ${recordsJson.length + failedRows.length}`,
        imported: sql`${entityImports.imported} + ${recordsJson.length}`,
        failed: sql`${entityImports.failed} + ${failedRows.length}`,
        // Only the first failedRowsMax are kept (the count says how many there were).
        ...(failedRows.length === 0
          ? {}
          : {
              failedRows: sql`(
          SELECT coalesce(jsonb_agg(e ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(
            ${entityImports.failedRows} || ${JSON.stringify(failedRows)}::jsonb
          ) WITH ORDINALITY AS t(e, n) WHERE n <= ${failedRowsMax}
        )`,
            }),
      })
      .where(and(eq(entityImports.id, imp.id), eq(entityImports.batches, batch)))
      .returning({ id: entityImports.id });
    if (!claimed) return false;
    if (recordsJson.length > 0) {
      // The whole batch as one JSON array, one parameter, one statement: nothing to build per row
      // (a multi-row VALUES of 500 rows, 4 parameters each, cost more to make and send than to
      // store); on the database's side it measured close to COPY of the same batches.
      await tx.execute(sql`
        insert into entity_records (app_id, entity, creator_id, data)
        select ${imp.appId}, ${imp.entity}, ${imp.creatorId}, r
        from jsonb_array_elements(${`[${recordsJson.join(",")}]`}::jsonb) as t(r)`);
    }
    return true;
  });
}
