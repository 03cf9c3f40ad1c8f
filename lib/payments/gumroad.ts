import "server-only";
import { z } from "zod";
import { GUMROAD_SALES_MAX_PAGES, GUMROAD_TIMEOUT_MS } from "@/lib/constants";
import { env } from "@/lib/env";

// Gumroad's HTTP API (v2), as documented at https://gumroad.com/api and as its server answers:
// the token rides as `Authorization: Bearer` (Doorkeeper reads it there as well as from the
// access_token parameter, and a header stays out of URLs and logs); a refused token is a bare
// 401 (403 when it lacks the scope), a refused request a JSON `{ success: false, message }`
// (often with status 200) or a 400 `{ status, error }`. GUMROAD_API_URL points it at a local
// server in tests.

export type GumroadFailure = "token" | "scope" | "unavailable" | "refused";

/** A Gumroad call that did not give what was asked for; `reason` says whose fault it is. */
export class GumroadError extends Error {
  constructor(
    readonly reason: GumroadFailure,
    message: string,
  ) {
    super(message);
  }
}

const Product = z.object({
  id: z.string().min(1),
  name: z.string(),
  short_url: z.string().nullish(),
  published: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
  is_tiered_membership: z.boolean().nullish(),
});

const Products = z.object({ success: z.literal(true), products: z.array(Product) });

/**
 * One sale (purchase) as GET /v2/sales lists it. Only the fields a membership check reads;
 * Gumroad leaves out the subscription fields for a sale that is not a membership.
 */
export const GumroadSale = z.object({
  id: z.string(),
  email: z.string().nullish(),
  purchase_email: z.string().nullish(),
  product_id: z.string(),
  refunded: z.boolean().nullish(),
  partially_refunded: z.boolean().nullish(),
  chargedback: z.boolean().nullish(),
  disputed: z.boolean().nullish(),
  dispute_won: z.boolean().nullish(),
  is_gift_sender_purchase: z.boolean().nullish(),
  subscription_id: z.string().nullish(),
  /** The subscription was cancelled (perhaps still paid up to the end of its period) or failed. */
  cancelled: z.boolean().nullish(),
  /** The subscription no longer gives access: ended, failed, or cancelled and past its period. */
  dead: z.boolean().nullish(),
  ended: z.boolean().nullish(),
  preorder_cancelled: z.boolean().nullish(),
});
export type GumroadSale = z.infer<typeof GumroadSale>;

const SalesPage = z.object({
  success: z.literal(true),
  sales: z.array(z.unknown()),
  next_page_key: z.string().nullish(),
});

export type GumroadProduct = { id: string; name: string; url: string | null; isMembership: boolean };

async function call(token: string, path: string, query: Record<string, string> = {}): Promise<unknown> {
  const url = new URL(path, env().GUMROAD_API_URL);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      signal: AbortSignal.timeout(GUMROAD_TIMEOUT_MS),
      redirect: "error",
    });
  } catch (err) {
    throw new GumroadError("unavailable", `Gumroad ${path}: ${(err as Error).message}`);
  }
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 401) throw new GumroadError("token", `Gumroad ${path}: 401`);
  if (res.status === 403) throw new GumroadError("scope", `Gumroad ${path}: 403`);
  if (res.status >= 500 || res.status === 429) {
    throw new GumroadError("unavailable", `Gumroad ${path}: ${res.status}`);
  }
  const record = (body ?? {}) as { success?: unknown; message?: unknown; error?: unknown };
  if (!res.ok || record.success !== true) {
    const said = typeof record.message === "string" ? record.message : record.error;
    throw new GumroadError("refused", `Gumroad ${path}: ${res.status} ${String(said ?? "no message")}`);
  }
  return body;
}

/** GET /v2/products: the products of the token's account, deleted ones left out. */
export async function listGumroadProducts(token: string): Promise<GumroadProduct[]> {
  const parsed = Products.safeParse(await call(token, "/v2/products"));
  if (!parsed.success) throw new GumroadError("unavailable", "Gumroad /v2/products: unexpected answer");
  return parsed.data.products
    .filter((p) => p.deleted !== true)
    .map((p) => ({
      id: p.id,
      name: p.name,
      url: p.short_url ?? null,
      isMembership: p.is_tiered_membership === true,
    }));
}

/**
 * GET /v2/sales?product_id=&email=: the sales of one product to one address, newest first,
 * following `page_key` (10 sales a page) up to `maxPages` (GUMROAD_SALES_MAX_PAGES) pages. Sales that do
 * not parse are skipped (a sale this check cannot read never counts as a purchase).
 */
export async function listGumroadSales(
  token: string,
  filter: { productId: string; email?: string; maxPages?: number },
): Promise<GumroadSale[]> {
  const sales: GumroadSale[] = [];
  let pageKey: string | null | undefined;
  for (let page = 0; page < (filter.maxPages ?? GUMROAD_SALES_MAX_PAGES); page++) {
    const query: Record<string, string> = { product_id: filter.productId };
    if (filter.email) query.email = filter.email;
    if (pageKey) query.page_key = pageKey;
    const parsed = SalesPage.safeParse(await call(token, "/v2/sales", query));
    if (!parsed.success) throw new GumroadError("unavailable", "Gumroad /v2/sales: unexpected answer");
    for (const raw of parsed.data.sales) {
      const sale = GumroadSale.safeParse(raw);
      if (sale.success) sales.push(sale.data);
    }
    pageKey = parsed.data.next_page_key;
    if (!pageKey) break;
  }
  return sales;
}
