import type { findAppById } from "../db/queries/apps";
import { findEntityImportById, findLatestEntityImport } from "../db/queries/entity-imports";
import { countEntityRecords } from "../db/queries/entity-records";
import { runCsvImportJob, startCsvImport } from "../lib/app-data/csv-import";
import { deployFunction, functionUrl, listFunctions } from "../lib/functions/deploy";
import { listSecrets, saveSecrets } from "../lib/secrets/secrets";
import type { FileChange } from "../lib/space/schemas";
import { DEMO_IDS } from "./seed-apps";
import { PRODUCT_CSV_MAPPING, PRODUCT_ENTITY, PRODUCT_SCHEMA, productCsv } from "./seed-product-catalog-data";
import { seedPublishedSpaceApp } from "./seed-space-app";

// The Product catalog demo for npm run db:seed: a published space app whose Product entity has a
// field of every kind the Database panel shows (image, date-time, boolean, select, text with and
// without a limit, long text, number, multiselect, JSON), about 150 products imported from a CSV
// file through the real importer (lib/app-data/csv-import.ts: the file stored with its mapping,
// then the import job run here, as the worker would), a few rows of which the schema refuses so
// the import has failed rows, a demo secret so the Secrets dialog has one, and a deployed function
// (functions/out-of-stock.ts) reading the products as the app's service role. The version is
// written through the chat's services, the secret through the secrets service. Once: an app with
// versions keeps them, an entity imported once is not imported again, a secret there is kept.

const REQUEST =
  "Build a product catalog: products with a picture, price, category and tags, and a page listing them";
const ANSWER =
  "I made a Product entity (name, description, picture, price, stock, category, tags, release date and size) and a page that lists the products through the app's data client. Import your catalog as a CSV file in the Database panel.";

const PAGE = `import { useEffect, useState } from "react";
import { entities, AppClientError } from "@app/client";

export default function Home() {
  const [products, setProducts] = useState([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState("");

  useEffect(() => {
    let live = true;
    entities.Product.list({ sort: "-createdAt", limit: 60 })
      .then((rows) => live && setProducts(rows))
      .catch((err) => live && setError(err instanceof AppClientError ? err.message : "Something went wrong. Please try again."))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="min-h-screen bg-slate-50 text-slate-900">
      <main className="mx-auto max-w-5xl px-4 py-8">
        <h1 className="text-3xl font-bold">Product catalog</h1>
        <div role="alert" className={error ? "mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800" : ""}>
          {error}
        </div>
        {loading ? (
          <p className="mt-6 text-slate-700">Loading products…</p>
        ) : (
          <ul className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {products.map((p) => (
              <li key={p.id} className="flex gap-3 rounded-lg border border-slate-300 bg-white p-4">
                {p.imageUrl ? <img src={p.imageUrl} alt="" className="h-16 w-16 shrink-0 rounded-md" /> : null}
                <div className="min-w-0">
                  <h2 className="font-semibold">{p.name}</h2>
                  <p className="text-sm text-slate-700">
                    {p.category} · {p.price.toFixed(2)} · {p.inStock ? "In stock" : "Out of stock"}
                  </p>
                  <p className="mt-1 flex flex-wrap gap-1">
                    {(p.tags || []).map((t) => (
                      <span key={t} className="rounded bg-slate-200 px-2 text-xs text-slate-800">{t}</span>
                    ))}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
`;

/** The demo function: products out of stock, read as the app's service role, for a supplier's system. */
const OUT_OF_STOCK_FUNCTION = `import { entities } from "@app/client";

// GET: the products out of stock, for the supplier's ordering system (optional ?category=).
Deno.serve(async (req) => {
  const category = new URL(req.url).searchParams.get("category");
  const filter = category ? { inStock: false, category } : { inStock: false };
  const products = await entities.${PRODUCT_ENTITY}.list({ filter, sort: "-createdAt", limit: 200 });
  return Response.json({
    count: products.length,
    products: products.map((p) => ({ id: p.id, name: p.name, category: p.category })),
  });
});
`;
export const PRODUCT_CATALOG_FUNCTION = "out-of-stock";

const CHANGES: FileChange[] = [
  { type: "add_entity", name: PRODUCT_ENTITY, content: PRODUCT_SCHEMA },
  { type: "add_file", path: "pages/Home.jsx", content: PAGE },
  { type: "add_file", path: `functions/${PRODUCT_CATALOG_FUNCTION}.ts`, content: OUT_OF_STOCK_FUNCTION },
];
const TITLES = ["Add the Product entity", "Create the catalog page", "Add the out-of-stock function"];

/** The demo secret: a clearly fake value, so the Secrets dialog has a row to show. */
export const PRODUCT_CATALOG_SECRET = {
  key: "PAYMENTS_API_KEY",
  value: "sk_test_demo_not_a_real_key",
  instructions: "A demo value: put your payment provider's test key here.",
} as const;

/** Imports the demo file once: a new import, or one that stopped before its end run again. */
async function importProducts(app: Awaited<ReturnType<typeof findAppById>> & {}, userId: string) {
  let imp = await findLatestEntityImport(app.id, PRODUCT_ENTITY);
  if (!imp) {
    // The job is run here, at once, rather than queued for a worker that may not be running.
    const { importId } = await startCsvImport(
      app,
      userId,
      PRODUCT_ENTITY,
      productCsv(),
      PRODUCT_CSV_MAPPING,
      async () => {},
    );
    imp = await findEntityImportById(importId);
  }
  if (imp && (imp.status === "queued" || imp.status === "importing")) {
    await runCsvImportJob({ importId: imp.id }, { finalAttempt: true });
  }
  return findLatestEntityImport(app.id, PRODUCT_ENTITY);
}

/** Seeds the Product catalog; the seed's summary line. */
export async function seedProductCatalog(ownerAccountId: string, ownerUserId: string): Promise<string> {
  const app = await seedPublishedSpaceApp(ownerAccountId, {
    id: DEMO_IDS.productCatalog,
    content: {
      header: "Product catalog",
      description: "A small shop's catalog built by the chat, its products imported from a CSV file.",
      welcomeMessage: "Browse the catalog.",
    },
    request: REQUEST,
    answer: ANSWER,
    changes: CHANGES,
    titles: TITLES,
  });

  const imp = await importProducts(app, ownerUserId);
  const { secrets } = await listSecrets(app);
  if (!secrets.some((s) => s.key === PRODUCT_CATALOG_SECRET.key)) {
    await saveSecrets(app, { secrets: [{ ...PRODUCT_CATALOG_SECRET }] });
  }
  // Deployed once, as the Functions panel's Deploy does: its URL answers on the published app.
  const fn = (await listFunctions(app)).functions.find((f) => f.name === PRODUCT_CATALOG_FUNCTION);
  if (fn && fn.state !== "success") await deployFunction(app, PRODUCT_CATALOG_FUNCTION, ownerUserId);
  return (
    `Product catalog (space app, published): /app/${app.id} (builder: /build/app/${app.id}), ` +
    `${await countEntityRecords(app.id, PRODUCT_ENTITY)} Product records imported from a CSV file ` +
    `(${imp?.failed ?? 0} failed rows of ${imp?.total ?? 0}), secret ${PRODUCT_CATALOG_SECRET.key}, ` +
    `function ${functionUrl(app.id, PRODUCT_CATALOG_FUNCTION)}`
  );
}
