import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body";

// A small stand-in for Gumroad in tests. It speaks the parts of Gumroad's API v2 that
// lib/payments/gumroad.ts calls, as Gumroad's server (Rails + Doorkeeper) answers them:
//
// - the access token is read from `Authorization: Bearer`, or the access_token parameter;
//   a token Gumroad does not know gets a bare 401 with Doorkeeper's WWW-Authenticate header,
//   a token without the view_sales scope a bare 403 on /v2/sales (error="insufficient_scope");
// - GET /v2/products: { success: true, products: [...] } (deleted products left out);
// - GET /v2/sales?product_id=&email=&page_key=: { success: true, sales: [...], next_page_key,
//   next_page_url } newest first, 10 a page; a product id Gumroad cannot decode is a 400
//   { status: 400, error: "Invalid product ID." }; each sale as Purchase#as_json(version: 2),
//   with subscription_id, cancelled, dead, ended... for a membership.
//
// And it plays the buyer: a product's short_url (GET /l/{permalink}) is a page with an email box
// and a Buy button; buying records a sale (and, for a membership product, a live subscription).

export const GUMROAD_TEST_TOKEN = "gumroad-test-access-token-0123456789";
/** A token Gumroad knows but issued with the view_public scope only. */
export const GUMROAD_PUBLIC_ONLY_TOKEN = "gumroad-public-scope-token-0123456789";

export type GumroadFixtureProduct = {
  id: string;
  name: string;
  permalink: string;
  membership: boolean;
  published: boolean;
  priceCents: number;
};

/** The fixture account's products (ids shaped as Gumroad's obfuscated ones). */
export const GUMROAD_PRODUCTS = {
  membership: {
    id: "qQn8x6VYtLcMH2uLJ5Tf9A==",
    name: "Pro Membership",
    permalink: "pro",
    membership: true,
    published: true,
    priceCents: 900,
  },
  lifetime: {
    id: "Ze3pK0bWQmVgYc7rX1sJ4w==",
    name: "Lifetime Access",
    permalink: "lifetime",
    membership: false,
    published: true,
    priceCents: 4900,
  },
  draft: {
    id: "Hb2mN7cUe9RkTq4sW0xYzA==",
    name: "Draft Course",
    permalink: "draft-course",
    membership: false,
    published: false,
    priceCents: 1500,
  },
} satisfies Record<string, GumroadFixtureProduct>;

type Subscription = { id: string; cancelledAt: Date | null; endedAt: Date | null; failedAt: Date | null };

export type GumroadFixtureSale = {
  id: string;
  email: string;
  productId: string;
  createdAt: Date;
  refunded: boolean;
  chargedback: boolean;
  disputed: boolean;
  disputeWon: boolean;
  giftSender: boolean;
  subscription: Subscription | null;
};

export type GumroadServer = {
  /** The API base for GUMROAD_API_URL */
  url: string;
  token: string;
  /** Records a sale, as a buyer paying would; a membership product's sale gets a live subscription. */
  addSale(
    sale: { email: string; productId: string } & Partial<
      Pick<
        GumroadFixtureSale,
        "refunded" | "chargedback" | "disputed" | "disputeWon" | "giftSender" | "createdAt"
      >
    >,
  ): GumroadFixtureSale;
  /** The buyer cancels: at once (the subscription is dead), or at the end of the paid period. */
  cancelSubscription(saleId: string, opts?: { atPeriodEnd?: boolean }): void;
  /** The subscription's last charge failed for good. */
  failSubscription(saleId: string): void;
  refund(saleId: string): void;
  /** Another access token of the same account (all scopes, unless told otherwise). */
  issueToken(scopes?: string[]): string;
  /** The seller revokes a token (Settings, Advanced, Applications): 401 from then on. */
  revokeToken(token: string): void;
  /** The next API call answers 502 with an HTML page, as Gumroad's edge does when it is down. */
  failNextCall(): void;
  /** Every API call as "METHOD /path?query" (the token left out), for assertions. */
  calls: string[];
  sales: GumroadFixtureSale[];
  close(): Promise<void>;
};

const PAGE_SIZE = 10;
const SELLER_ID = "NQbR6fX1cLQk9uXyDEmJ3Q==";

function html(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">${body}</body></html>`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export async function startGumroadServer(): Promise<GumroadServer> {
  const products: GumroadFixtureProduct[] = Object.values(GUMROAD_PRODUCTS);
  const sales: GumroadFixtureSale[] = [];
  const ALL_SCOPES = ["view_public", "edit_products", "view_sales", "mark_sales_as_shipped", "refund_sales"];
  const tokens = new Map<string, string[]>([
    [GUMROAD_TEST_TOKEN, ALL_SCOPES],
    [GUMROAD_PUBLIC_ONLY_TOKEN, ["view_public"]],
  ]);
  const calls: string[] = [];
  let failNext = false;
  let url = "";

  const productJson = (p: GumroadFixtureProduct) => ({
    name: p.name,
    description: `<p>${p.name}</p>`,
    customizable_price: false,
    require_shipping: false,
    custom_receipt: null,
    custom_permalink: p.permalink,
    subscription_duration: p.membership ? "monthly" : null,
    id: p.id,
    url: null,
    price: p.priceCents,
    currency: "usd",
    short_url: `${url}/l/${p.permalink}`,
    thumbnail_url: null,
    tags: [],
    formatted_price: `$${(p.priceCents / 100).toFixed(2)}${p.membership ? " a month" : ""}`,
    published: p.published,
    file_info: {},
    max_purchase_count: null,
    deleted: false,
    custom_fields: [],
    custom_summary: "",
    is_tiered_membership: p.membership,
    recurrences: p.membership ? ["monthly"] : null,
    variants: [],
    custom_delivery_url: null,
    sales_count: sales.filter((s) => s.productId === p.id).length,
    sales_usd_cents: sales.filter((s) => s.productId === p.id).length * p.priceCents,
  });

  const alive = (sub: Subscription, now = new Date()) =>
    !sub.failedAt && !sub.endedAt && (!sub.cancelledAt || sub.cancelledAt > now);

  const saleJson = (s: GumroadFixtureSale) => {
    const p = products.find((x) => x.id === s.productId)!;
    const json: Record<string, unknown> = {
      id: s.id,
      email: s.email,
      seller_id: SELLER_ID,
      timestamp: "less than a minute ago",
      daystamp: s.createdAt.toUTCString(),
      created_at: s.createdAt.toISOString(),
      product_name: p.name,
      product_has_variants: false,
      price: p.priceCents,
      gumroad_fee: Math.round(p.priceCents * 0.1),
      is_bundle_purchase: false,
      is_bundle_product_purchase: false,
      subscription_duration: p.membership ? "monthly" : null,
      formatted_display_price: `$${(p.priceCents / 100).toFixed(0)}`,
      formatted_total_price: `$${(p.priceCents / 100).toFixed(0)}`,
      currency_symbol: "$",
      amount_refundable_in_currency: s.refunded ? "0" : (p.priceCents / 100).toFixed(2),
      product_id: p.id,
      product_permalink: p.permalink,
      refunded: s.refunded,
      partially_refunded: false,
      chargedback: s.chargedback && !s.disputeWon,
      purchase_email: s.email,
      full_name: null,
      paid: true,
      has_variants: false,
      variants: {},
      variants_and_quantity: "",
      has_custom_fields: false,
      custom_fields: {},
      order_id: Number.parseInt(s.id.replace(/\D/g, "").slice(0, 9) || "1", 10),
      is_product_physical: false,
      is_recurring_billing: p.membership,
      can_contact: true,
      is_following: false,
      disputed: s.disputed,
      dispute_won: s.disputeWon,
      is_additional_contribution: false,
      discover_fee_charged: false,
      is_upgrade_purchase: false,
      is_more_like_this_recommended: false,
      is_gift_sender_purchase: s.giftSender,
      is_gift_receiver_purchase: false,
      referrer: "direct",
      card: { visual: "**** **** **** 4242", type: "visa", bin: null, expiry_month: null, expiry_year: null },
      product_rating: null,
      reviews_count: 0,
      average_rating: 0,
    };
    if (s.subscription) {
      const sub = s.subscription;
      Object.assign(json, {
        subscription_id: sub.id,
        cancelled: sub.cancelledAt !== null || sub.failedAt !== null,
        dead: !alive(sub),
        ended: sub.endedAt !== null,
        free_trial_ended: null,
        free_trial_ends_on: null,
        recurring_charge: false,
      });
    }
    return json;
  };

  const addSale: GumroadServer["addSale"] = (input) => {
    const product = products.find((p) => p.id === input.productId);
    if (!product) throw new Error(`no fixture product ${input.productId}`);
    const sale: GumroadFixtureSale = {
      id: `${crypto.randomBytes(16).toString("base64").slice(0, 22)}==`,
      email: input.email,
      productId: product.id,
      createdAt: input.createdAt ?? new Date(),
      refunded: input.refunded ?? false,
      chargedback: input.chargedback ?? false,
      disputed: input.disputed ?? false,
      disputeWon: input.disputeWon ?? false,
      giftSender: input.giftSender ?? false,
      subscription: product.membership
        ? {
            id: `${crypto.randomBytes(16).toString("base64").slice(0, 22)}==`,
            cancelledAt: null,
            endedAt: null,
            failedAt: null,
          }
        : null,
    };
    sales.push(sale);
    return sale;
  };

  const subscriptionOf = (saleId: string) => {
    const sub = sales.find((s) => s.id === saleId)?.subscription;
    if (!sub) throw new Error(`sale ${saleId} has no subscription`);
    return sub;
  };

  /** Doorkeeper's refusals: a bare status, the reason in WWW-Authenticate. */
  function refuse(res: http.ServerResponse, status: 401 | 403) {
    const error =
      status === 401
        ? 'error="invalid_token", error_description="The access token is invalid"'
        : 'error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token."';
    res.writeHead(status, {
      "www-authenticate": `Bearer realm="Doorkeeper", ${error}`,
      "cache-control": "no-cache",
    });
    res.end();
  }

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url ?? "/", url);
      const body = req.method === "POST" ? await readBody(req) : "";
      const form = new URLSearchParams(body);

      // The buyer's side: the product page and its Buy button.
      const page = u.pathname.match(/^\/l\/([\w-]+)$/);
      if (page) {
        const product = products.find((p) => p.permalink === page[1] && p.published);
        if (!product) {
          res.writeHead(404, { "content-type": "text/html" });
          res.end(html("Not found", "<h1>Product not found</h1>"));
          return;
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        if (req.method === "POST") {
          const email = (form.get("email") ?? "").trim();
          if (!email.includes("@")) {
            res.end(html(product.name, "<h1>Enter your email</h1>"));
            return;
          }
          addSale({ email, productId: product.id });
          res.end(
            html(
              "Thanks!",
              `<h1>Thanks for your purchase!</h1><p>${escapeHtml(product.name)} is yours. A receipt went to ${escapeHtml(email)}.</p>`,
            ),
          );
          return;
        }
        res.end(
          html(
            product.name,
            `<h1>${escapeHtml(product.name)}</h1><p>$${(product.priceCents / 100).toFixed(2)}${product.membership ? " a month" : ""}</p>
<form method="post"><label>Email <input name="email" type="email" autocomplete="email" required></label>
<button type="submit">I want this!</button></form>`,
          ),
        );
        return;
      }

      if (!u.pathname.startsWith("/v2/")) {
        json(res, 404, { success: false, message: "Not found" });
        return;
      }
      const query = new URLSearchParams(u.searchParams);
      query.delete("access_token");
      calls.push(`${req.method} ${u.pathname}${query.size ? `?${query}` : ""}`);
      if (failNext) {
        failNext = false;
        res.writeHead(502, { "content-type": "text/html" });
        res.end(html("502 Bad Gateway", "<h1>502 Bad Gateway</h1>"));
        return;
      }
      const authz = req.headers.authorization;
      const token = authz?.startsWith("Bearer ")
        ? authz.slice(7)
        : (u.searchParams.get("access_token") ?? form.get("access_token"));
      const scopes = token ? tokens.get(token) : undefined;
      if (!scopes) return refuse(res, 401);

      if (req.method === "GET" && u.pathname === "/v2/products") {
        json(res, 200, { success: true, products: products.map(productJson) });
        return;
      }

      if (req.method === "GET" && u.pathname === "/v2/sales") {
        if (!scopes.includes("view_sales")) return refuse(res, 403);
        const productId = u.searchParams.get("product_id");
        // Gumroad decodes product ids; one it cannot decode is refused, an unknown one matches nothing.
        if (productId && !/^[A-Za-z0-9+/_-]{22}==$/.test(productId)) {
          json(res, 400, { status: 400, error: "Invalid product ID." });
          return;
        }
        const email = u.searchParams.get("email")?.trim().toLowerCase();
        let list = sales
          .filter((s) => !productId || s.productId === productId)
          .filter((s) => !email || s.email.toLowerCase() === email)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
        const pageKey = u.searchParams.get("page_key");
        if (pageKey) {
          const at = list.findIndex((s) => s.id === pageKey);
          if (at < 0) {
            json(res, 400, { status: 400, error: "Invalid page_key." });
            return;
          }
          list = list.slice(at + 1);
        }
        const pageSales = list.slice(0, PAGE_SIZE);
        const more = list.length > PAGE_SIZE;
        const next = more ? pageSales[pageSales.length - 1]!.id : null;
        const nextQuery = new URLSearchParams(query);
        if (next) nextQuery.set("page_key", next);
        json(res, 200, {
          success: true,
          sales: pageSales.map(saleJson),
          ...(next ? { next_page_key: next, next_page_url: `/v2/sales?${nextQuery}` } : {}),
        });
        return;
      }

      json(res, 404, { success: false, message: "Not found" });
    } catch (err) {
      res.writeHead(500);
      res.end(String(err));
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    token: GUMROAD_TEST_TOKEN,
    addSale,
    cancelSubscription(saleId, opts = {}) {
      const sub = subscriptionOf(saleId);
      // Cancelled at the end of the paid period: alive until then, as Gumroad counts it.
      sub.cancelledAt = opts.atPeriodEnd
        ? new Date(Date.now() + 20 * 24 * 3600 * 1000)
        : new Date(Date.now() - 1000);
    },
    failSubscription(saleId) {
      subscriptionOf(saleId).failedAt = new Date();
    },
    refund(saleId) {
      const sale = sales.find((s) => s.id === saleId);
      if (!sale) throw new Error(`no sale ${saleId}`);
      sale.refunded = true;
    },
    issueToken(scopes = ALL_SCOPES) {
      const token = crypto.randomBytes(24).toString("hex");
      tokens.set(token, scopes);
      return token;
    },
    revokeToken(token) {
      tokens.delete(token);
    },
    failNextCall() {
      failNext = true;
    },
    calls,
    sales,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The environment that points the app at this server. */
export function gumroadServerEnv(s: GumroadServer): Record<string, string> {
  return { GUMROAD_API_URL: s.url };
}
