import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { findAppById } from "@/db/queries/apps";
import { appFiles, appSecrets, entityImports, entityRecords, spaceBlobs, versions } from "@/db/schema";
import { SECRET_MASK } from "@/lib/constants";
import { listFunctions } from "@/lib/functions/deploy";
import { callPublicFunction } from "@/lib/functions/public-call";
import { listSecrets, readSecretValues } from "@/lib/secrets/secrets";
import { listEntities } from "@/lib/space/entities";
import { tableColumns } from "@/lib/space/table-columns";
import { DEMO_IDS } from "../../scripts/seed-apps";
import {
  PRODUCT_CATALOG_FUNCTION,
  PRODUCT_CATALOG_SECRET,
  seedProductCatalog,
} from "../../scripts/seed-product-catalog";
import {
  PRODUCT_BAD_ROWS,
  PRODUCT_ENTITY,
  PRODUCT_ROWS,
  PRODUCT_SCHEMA,
} from "../../scripts/seed-product-catalog-data";
import { createBuilder } from "../support/factories";

// The Product catalog of npm run db:seed: a space app whose Product entity makes every kind of
// cell of the Database panel, filled through the real CSV importer (with a few failed rows) and
// given a demo secret; seeding again adds nothing.

const appId = DEMO_IDS.productCatalog;
const BAD = Object.keys(PRODUCT_BAD_ROWS).length;

async function state() {
  const files = await db()
    .select({ path: appFiles.path, content: spaceBlobs.content })
    .from(appFiles)
    .innerJoin(spaceBlobs, and(eq(spaceBlobs.appId, appFiles.appId), eq(spaceBlobs.hash, appFiles.blobHash)))
    .where(eq(appFiles.appId, appId));
  const records = await db()
    .select({ id: entityRecords.id, creatorId: entityRecords.creatorId, data: entityRecords.data })
    .from(entityRecords)
    .where(and(eq(entityRecords.appId, appId), eq(entityRecords.entity, PRODUCT_ENTITY)))
    .orderBy(entityRecords.id);
  return {
    app: await findAppById(appId),
    files: Object.fromEntries(files.map((f) => [f.path, f.content])),
    versions: (await db().select().from(versions).where(eq(versions.appId, appId))).length,
    imports: await db().select().from(entityImports).where(eq(entityImports.appId, appId)),
    records,
    secrets: await db().select().from(appSecrets).where(eq(appSecrets.appId, appId)),
  };
}

describe("the seeded Product catalog", () => {
  it("has a Product entity of every cell kind, products imported from a CSV with failed rows, and a masked demo secret; a rerun changes nothing", async () => {
    const builder = await createBuilder();
    const line = await seedProductCatalog(builder.account.accountId, builder.user.id);
    expect(line).toContain(`/app/${appId}`);
    expect(line).toContain(`${PRODUCT_ROWS - BAD} Product records`);
    expect(line).toContain(`${BAD} failed rows of ${PRODUCT_ROWS}`);

    const first = await state();
    expect(first.app).toMatchObject({ type: "space", status: "active", header: "Product catalog" });
    expect(first.app!.ownerAccountId).toBe(builder.account.accountId);
    expect(first.files[`entities/${PRODUCT_ENTITY}.json`]).toBe(PRODUCT_SCHEMA);
    expect(first.files["pages/Home.jsx"]).toContain("entities.Product.list");
    expect(first.versions).toBe(1);

    // Every kind of cell the panel has, from the entity's fields as the panel reads them.
    const entity = (await listEntities(first.app!)).entities.find((e) => e.name === PRODUCT_ENTITY)!;
    const columns = tableColumns(PRODUCT_ENTITY, entity.fields);
    const kinds = Object.fromEntries(columns.map((c) => [c.field, c.kind]));
    expect(kinds).toMatchObject({
      name: "text",
      description: "text",
      imageUrl: "image",
      price: "number",
      inStock: "boolean",
      category: "select",
      tags: "multiselect",
      releasedAt: "datetime",
      dimensions: "json",
    });
    expect(columns.find((c) => c.field === "name")!.maxLength).toBe(40);
    expect(columns.find((c) => c.field === "category")!.options!.length).toBeGreaterThan(1);

    // One import, through the importer: its counts, its failed rows with their reasons, its records.
    expect(first.imports).toHaveLength(1);
    const [imp] = first.imports;
    expect(imp).toMatchObject({
      status: "complete",
      total: PRODUCT_ROWS,
      imported: PRODUCT_ROWS - BAD,
      failed: BAD,
      creatorId: builder.user.id,
      csv: null,
    });
    expect(imp!.failedRows.map((r) => r.row)).toEqual(Object.keys(PRODUCT_BAD_ROWS).map(Number));
    expect(imp!.failedRows.every((r) => r.reason.length > 0)).toBe(true);
    expect(first.records).toHaveLength(PRODUCT_ROWS - BAD);
    expect(first.records.every((r) => r.creatorId === builder.user.id)).toBe(true);
    // Every product has a picture (a data URL: shown offline), a long description, a date-time and
    // a JSON object; most have tags, some several (chips side by side).
    const products = first.records.map((r) => r.data as Record<string, unknown>);
    for (const p of products) {
      expect(String(p.imageUrl)).toMatch(/^data:image\/svg\+xml,/);
      expect(String(p.description).length).toBeGreaterThan(50);
      expect(Number.isNaN(Date.parse(String(p.releasedAt)))).toBe(false);
      expect(p.dimensions).toMatchObject({ unit: "cm" });
    }
    expect(products.some((p) => Array.isArray(p.tags) && p.tags.length > 1)).toBe(true);

    // The secret, masked in the list, its value sealed (not stored in clear) and readable by the server.
    expect((await listSecrets(first.app!)).secrets).toEqual([
      expect.objectContaining({ key: PRODUCT_CATALOG_SECRET.key, value: SECRET_MASK }),
    ]);
    expect(JSON.stringify(first.secrets)).not.toContain(PRODUCT_CATALOG_SECRET.value);
    expect(await readSecretValues(appId)).toEqual({
      [PRODUCT_CATALOG_SECRET.key]: PRODUCT_CATALOG_SECRET.value,
    });

    // The deployed function answers at its URL with the products out of stock, read as the app's
    // service role.
    expect(line).toContain(`/api/apps/${appId}/functions/${PRODUCT_CATALOG_FUNCTION}`);
    const listed = await listFunctions(first.app!);
    expect(listed.functions).toEqual([
      expect.objectContaining({
        name: PRODUCT_CATALOG_FUNCTION,
        state: "success",
        changedSinceDeploy: false,
      }),
    ]);
    const answer = await callPublicFunction(appId, PRODUCT_CATALOG_FUNCTION, "203.0.113.9", {
      method: "GET",
      url: `/api/apps/${appId}/functions/${PRODUCT_CATALOG_FUNCTION}?category=Kitchen`,
    });
    expect(answer.status).toBe(200);
    const outOfStock = products.filter((p) => p.inStock === false && p.category === "Kitchen");
    expect(outOfStock.length).toBeGreaterThan(0);
    const body = (await answer.json()) as { count: number; products: { name: string }[] };
    expect(body.count).toBe(outOfStock.length);
    expect(body.products.map((p) => p.name).sort()).toEqual(outOfStock.map((p) => String(p.name)).sort());

    await seedProductCatalog(builder.account.accountId, builder.user.id);
    const again = await state();
    expect(again.files).toEqual(first.files);
    expect(again.versions).toBe(1);
    expect(again.imports).toEqual(first.imports);
    expect(again.records).toEqual(first.records);
    expect(again.secrets).toEqual(first.secrets);
  });
});
