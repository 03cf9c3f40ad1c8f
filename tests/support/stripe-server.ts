import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { readBody } from "./read-body";

// A small stand-in for Stripe in tests. It speaks the parts of Stripe's REST API our code
// calls through the real `stripe` SDK (form-encoded requests, Bearer secret key, Stripe's
// error objects, idempotency keys) and delivers webhooks the way Stripe does: pretty-printed
// JSON bodies signed with the `Stripe-Signature` scheme (via the SDK's own
// generateTestHeaderString). Its hosted "checkout page", GET /c/pay/{session id}, plays the
// buyer: visiting it pays, delivers the events Stripe would send, and redirects to the
// success_url with the session id, as Stripe Checkout does.

type Json = Record<string, unknown>;

export type StripePrice = {
  /** In cents. */
  unitAmount: number;
  currency?: string;
  /** Set for subscription prices; null or absent for one-time prices. */
  recurring?: { interval: "month" | "year" } | null;
};

/** Where webhooks go: a URL, or a function that hands the request to a route in-process. */
export type WebhookTarget =
  | string
  | ((raw: string, headers: Record<string, string>) => Promise<{ status: number }>);

export type StripeEvent = {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: Json; previous_attributes?: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
};

export type Delivery = { eventId: string; type: string; status: number };

export type SubscriptionChanges = {
  status?: string;
  cancelAtPeriodEnd?: boolean;
  /** The first item's new price. */
  price?: string;
  /** As the API takes them: { id, price } changes an item, { price } adds one, { id, deleted } removes it. */
  items?: { id?: string; price?: string; deleted?: boolean }[];
  /** Merged into the metadata; an empty value removes the key. */
  metadata?: Record<string, string>;
  prorationBehavior?: string;
  paymentBehavior?: string;
};

export type StripeServer = {
  /** The API base for STRIPE_API_BASE, e.g. http://127.0.0.1:PORT */
  url: string;
  secretKey: string;
  webhookSecret: string;
  setWebhookTarget(target: WebhookTarget | null): void;
  /** Every API request the server answered: method, path and the decoded form body. */
  requests: {
    method: string;
    path: string;
    body: Json;
    authorization: string | undefined;
    idempotencyKey: string | undefined;
  }[];
  deliveries: Delivery[];
  session(id: string): Json | undefined;
  subscription(id: string): Json | undefined;
  /**
   * The buyer pays a session: creates the customer, subscription / payment intent and invoice
   * and returns the events Stripe would send, in Stripe's usual order. Delivered unless
   * `deliver: false` (then the test delivers them, in any order).
   */
  pay(sessionId: string, opts?: { deliver?: boolean; created?: number }): Promise<StripeEvent[]>;
  /**
   * customer.subscription.updated: changes a subscription as the merchant (or the API, POST
   * /v1/subscriptions/{id}) would: status, cancel_at_period_end, the first item's price, items
   * by id (without an id an item is added, as Stripe does), metadata (merged). A price of
   * another billing interval resets the billing dates and invoices at once (invoice.paid, or
   * with declinePayments a 402 under error_if_incomplete, past_due otherwise).
   */
  updateSubscription(
    id: string,
    changes: SubscriptionChanges,
    opts?: { deliver?: boolean; created?: number },
  ): Promise<StripeEvent>;
  /** Every subscription, oldest first (a test checks that a plan switch made no second one). */
  subscriptions(): Json[];
  /** From now on, payments Stripe attempts at once (a change of billing period) are declined. */
  declinePayments(on: boolean): void;
  /** customer.subscription.deleted: the subscription ends now. */
  cancelSubscription(id: string, opts?: { deliver?: boolean; created?: number }): Promise<StripeEvent>;
  /** A renewal invoice of a subscription: invoice.paid or invoice.payment_failed. */
  renewal(
    subscriptionId: string,
    outcome: "paid" | "failed",
    opts?: { deliver?: boolean; created?: number },
  ): Promise<StripeEvent>;
  /** checkout.session.expired: the buyer never paid. */
  expireSession(sessionId: string, opts?: { deliver?: boolean; created?: number }): Promise<StripeEvent>;
  /** An event of any type about any object, as Stripe would build it. */
  event(type: string, object: Json, opts?: { created?: number }): StripeEvent;
  /** Delivers an event (signed, pretty-printed) to the webhook target; answers its status. */
  deliver(event: StripeEvent): Promise<number>;
  /** The body and headers Stripe would POST for an event, for tests that tamper with them. */
  signedDelivery(
    event: StripeEvent,
    opts?: { timestamp?: number; secret?: string },
  ): { raw: string; headers: Record<string, string> };
  close(): Promise<void>;
};

/** The API request an event came from. */
type RequestInfo = { id: string; idempotencyKey: string | null };

const API_VERSION = Stripe.API_VERSION;
const webhooks = Stripe.webhooks;

const now = () => Math.floor(Date.now() / 1000);
const rand = (n: number) => crypto.randomBytes(n).toString("base64url").replace(/[-_]/g, "x").slice(0, n);

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; param?: string; code?: string },
  ) {
    super(body.message);
  }
}

const invalid = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, {
    type: "invalid_request_error",
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });
const missing = (kind: string, id: string, param?: string) =>
  new StripeApiError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${id}'`,
    ...(param ? { param } : {}),
  });

export async function startStripeServer(
  opts: {
    port?: number;
    secretKey?: string;
    webhookSecret?: string;
    prices?: Record<string, StripePrice>;
    webhook?: WebhookTarget;
  } = {},
): Promise<StripeServer> {
  const secretKey = opts.secretKey ?? `sk_test_${rand(24)}`;
  const webhookSecret = opts.webhookSecret ?? `whsec_${rand(32)}`;
  const prices = new Map(Object.entries(opts.prices ?? {}));
  let target: WebhookTarget | null = opts.webhook ?? null;
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const customers = new Map<string, Json>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  let declining = false;
  const requests: StripeServer["requests"] = [];
  const deliveries: Delivery[] = [];
  let base = "";

  // ---- objects ----

  function priceObject(id: string): Json {
    const p = prices.get(id)!;
    return {
      id,
      object: "price",
      active: true,
      currency: p.currency ?? "usd",
      livemode: false,
      recurring: p.recurring
        ? { interval: p.recurring.interval, interval_count: 1, usage_type: "licensed" }
        : null,
      type: p.recurring ? "recurring" : "one_time",
      unit_amount: p.unitAmount,
    };
  }

  function createSession(body: Json): Json {
    const mode = body.mode;
    if (mode !== "payment" && mode !== "subscription" && mode !== "setup") {
      throw invalid(
        mode === undefined
          ? "Missing required param: mode."
          : `Invalid mode: must be one of payment, setup, or subscription`,
        "mode",
        "parameter_missing",
      );
    }
    if (typeof body.success_url !== "string")
      throw invalid("Missing required param: success_url.", "success_url");
    if (body.customer && body.customer_email) {
      throw invalid("You may only specify one of these parameters: customer, customer_email.", "customer");
    }
    if (body.customer_creation && mode !== "payment") {
      throw invalid("`customer_creation` can only be used in `payment` mode.", "customer_creation");
    }
    if (body.customer && !customers.has(String(body.customer)))
      throw missing("customer", String(body.customer), "customer");
    const items = Array.isArray(body.line_items) ? (body.line_items as Json[]) : [];
    if (items.length === 0)
      throw invalid("Missing required param: line_items.", "line_items", "parameter_missing");
    let amount = 0;
    items.forEach((item, i) => {
      const priceId = String(item.price ?? "");
      if (!prices.has(priceId)) throw missing("price", priceId, `line_items[${i}][price]`);
      const price = prices.get(priceId)!;
      if (mode === "subscription" && !price.recurring) {
        throw invalid(
          "You must provide at least one recurring price in `subscription` mode when using prices.",
          `line_items[${i}][price]`,
        );
      }
      if (mode === "payment" && price.recurring) {
        throw invalid(
          "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
          `line_items[${i}][price]`,
        );
      }
      amount += price.unitAmount * Number(item.quantity ?? 1);
    });
    const id = `cs_test_${rand(58)}`;
    const created = now();
    const session: Json = {
      id,
      object: "checkout.session",
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: amount,
      amount_total: amount,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: null,
      cancel_url: body.cancel_url ?? null,
      client_reference_id: body.client_reference_id ?? null,
      client_secret: null,
      consent: null,
      created,
      currency: prices.get(String(items[0]!.price))!.currency ?? "usd",
      custom_fields: [],
      customer: body.customer ?? null,
      customer_creation: body.customer_creation ?? (mode === "payment" ? "if_required" : null),
      customer_details: null,
      customer_email: body.customer_email ?? null,
      expires_at: created + 24 * 60 * 60,
      invoice: null,
      livemode: false,
      locale: null,
      metadata: body.metadata ?? {},
      mode,
      payment_intent: null,
      payment_link: null,
      payment_method_types: ["card"],
      payment_status: "unpaid",
      status: "open",
      submit_type: null,
      subscription: null,
      success_url: body.success_url,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: "hosted",
      url: `${base}/c/pay/${id}`,
      // Kept for the payment; Stripe keeps them too, they are not part of the session object.
      _lineItems: items.map((item) => ({ price: String(item.price), quantity: Number(item.quantity ?? 1) })),
      _subscriptionData: (body.subscription_data as Json | undefined) ?? {},
      _paymentIntentData: (body.payment_intent_data as Json | undefined) ?? {},
    };
    sessions.set(id, session);
    return session;
  }

  function publicView(obj: Json): Json {
    return Object.fromEntries(Object.entries(obj).filter(([k]) => !k.startsWith("_")));
  }

  function ensureCustomer(session: Json): string {
    if (typeof session.customer === "string") return session.customer;
    const id = `cus_${rand(14)}`;
    customers.set(id, { id, object: "customer", email: session.customer_email ?? null, livemode: false });
    return id;
  }

  function subscriptionObject(
    id: string,
    s: { customer: string; price: string; metadata: Json; status: string; created: number },
  ): Json {
    return {
      id,
      object: "subscription",
      billing_cycle_anchor: s.created,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: "charge_automatically",
      created: s.created,
      currency: "usd",
      customer: s.customer,
      ended_at: null,
      items: {
        object: "list",
        data: [itemObject(id, s.price, s.created)],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: s.metadata,
      start_date: s.created,
      status: s.status,
      trial_end: null,
      trial_start: null,
    };
  }

  function invoiceObject(
    sub: Json,
    opts: { status: "paid" | "open"; reason: string; created: number },
  ): Json {
    const item = ((sub.items as Json).data as Json[])[0]!;
    const price = item.price as Json;
    const amount = Number(price.unit_amount);
    const id = `in_${rand(24)}`;
    return {
      id,
      object: "invoice",
      amount_due: amount,
      amount_paid: opts.status === "paid" ? amount : 0,
      amount_remaining: opts.status === "paid" ? 0 : amount,
      attempt_count: 1,
      billing_reason: opts.reason,
      collection_method: "charge_automatically",
      created: opts.created,
      currency: price.currency,
      customer: sub.customer,
      livemode: false,
      metadata: {},
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { metadata: sub.metadata, subscription: sub.id },
      },
      status: opts.status,
      status_transitions: { paid_at: opts.status === "paid" ? opts.created : null },
      total: amount,
    };
  }

  // ---- events and delivery ----

  function event(
    type: string,
    object: Json,
    o: { created?: number; previous?: Json; request?: RequestInfo } = {},
  ): StripeEvent {
    return {
      id: `evt_${rand(24)}`,
      object: "event",
      api_version: API_VERSION,
      created: o.created ?? now(),
      data: {
        object: structuredClone(publicView(object)),
        ...(o.previous ? { previous_attributes: o.previous } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      // Events an API request caused name it, as Stripe's do; automatic ones have null.
      request: { id: o.request?.id ?? null, idempotency_key: o.request?.idempotencyKey ?? null },
      type,
    };
  }

  function signedDelivery(e: StripeEvent, o: { timestamp?: number; secret?: string } = {}) {
    // Stripe sends pretty-printed JSON; the signature covers exactly these bytes.
    const raw = JSON.stringify(e, null, 2);
    const signature = webhooks.generateTestHeaderString({
      payload: raw,
      secret: o.secret ?? webhookSecret,
      timestamp: o.timestamp ?? now(),
    });
    return {
      raw,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "stripe-signature": signature,
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      },
    };
  }

  async function deliver(e: StripeEvent): Promise<number> {
    if (!target) throw new Error("stripe-server: no webhook target set");
    const { raw, headers } = signedDelivery(e);
    let status: number;
    if (typeof target === "string") {
      const res = await fetch(target, { method: "POST", headers, body: raw });
      status = res.status;
      await res.arrayBuffer();
    } else {
      status = (await target(raw, headers)).status;
    }
    deliveries.push({ eventId: e.id, type: e.type, status });
    return status;
  }

  /**
   * Delivers events one after the other. For a test helper a refused delivery is an error; for
   * an API request it is not (Stripe answers the request whatever the webhook says): it stays
   * in `deliveries` for the test to check.
   */
  async function maybeDeliver(events: StripeEvent[], deliverNow: boolean | undefined, strict = true) {
    if (deliverNow === false) return;
    for (const e of events) {
      const status = await deliver(e);
      if (strict && status >= 300) throw new Error(`stripe-server: webhook ${e.type} answered ${status}`);
    }
  }

  // ---- the buyer's and the merchant's actions ----

  async function pay(
    sessionId: string,
    o: { deliver?: boolean; created?: number } = {},
  ): Promise<StripeEvent[]> {
    const session = sessions.get(sessionId);
    if (!session) throw missing("checkout.session", sessionId);
    if (session.status !== "open")
      throw invalid(`This Checkout Session is no longer active (${session.status}).`);
    const created = o.created ?? now();
    const customer = ensureCustomer(session);
    const email =
      (customers.get(customer)?.email as string | null) ?? session.customer_email ?? "buyer@example.com";
    const events: StripeEvent[] = [];
    Object.assign(session, {
      status: "complete",
      payment_status: "paid",
      customer,
      customer_details: { email, name: null, address: null, phone: null, tax_exempt: "none", tax_ids: [] },
    });
    const item = (session._lineItems as { price: string }[])[0]!;
    if (session.mode === "subscription") {
      const subData = session._subscriptionData as Json;
      const subId = `sub_${rand(24)}`;
      const sub = subscriptionObject(subId, {
        customer,
        price: item.price,
        metadata: (subData.metadata as Json | undefined) ?? {},
        status: "active",
        created,
      });
      const invoice = invoiceObject(sub, { status: "paid", reason: "subscription_create", created });
      sub.latest_invoice = invoice.id;
      subscriptions.set(subId, sub);
      Object.assign(session, { subscription: subId, invoice: invoice.id });
      events.push(
        event("customer.subscription.created", sub, { created }),
        event("invoice.paid", invoice, { created }),
        event("checkout.session.completed", session, { created }),
      );
    } else {
      const pi = `pi_${rand(24)}`;
      Object.assign(session, { payment_intent: pi });
      events.push(event("checkout.session.completed", session, { created }));
    }
    await maybeDeliver(events, o.deliver);
    return events;
  }

  function getSubscription(id: string): Json {
    const sub = subscriptions.get(id);
    if (!sub) throw missing("subscription", id);
    return sub;
  }

  function itemObject(subscriptionId: string, price: string, periodStart: number): Json {
    const period = prices.get(price)?.recurring?.interval === "year" ? 365 * 86400 : 30 * 86400;
    return {
      id: `si_${rand(14)}`,
      object: "subscription_item",
      current_period_start: periodStart,
      current_period_end: periodStart + period,
      price: priceObject(price),
      quantity: 1,
      subscription: subscriptionId,
    };
  }

  const intervalOfItem = (item: Json | undefined) =>
    ((item?.price as Json | undefined)?.recurring as Json | null | undefined)?.interval ?? null;

  function recurringPrice(price: string, param: string): void {
    if (!prices.has(price)) throw missing("price", price, param);
    if (!prices.get(price)!.recurring) {
      throw invalid(
        "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.",
        param,
      );
    }
  }

  async function updateSubscription(
    id: string,
    changes: SubscriptionChanges,
    o: { deliver?: boolean; created?: number; request?: RequestInfo } = {},
  ): Promise<StripeEvent> {
    const current = getSubscription(id);
    if (current.status === "canceled")
      throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
    const prorations = ["create_prorations", "none", "always_invoice"];
    if (changes.prorationBehavior !== undefined && !prorations.includes(changes.prorationBehavior)) {
      throw invalid(
        `Invalid proration_behavior: must be one of ${prorations.join(", ")}`,
        "proration_behavior",
      );
    }
    const behaviors = [
      "allow_incomplete",
      "default_incomplete",
      "error_if_incomplete",
      "pending_if_incomplete",
    ];
    if (changes.paymentBehavior !== undefined && !behaviors.includes(changes.paymentBehavior)) {
      throw invalid(`Invalid payment_behavior: must be one of ${behaviors.join(", ")}`, "payment_behavior");
    }
    // Changes are made on a copy, kept only if the whole request succeeds (as Stripe does).
    const sub = structuredClone(current);
    const created = o.created ?? now();
    const previous: Json = {};
    const items = (sub.items as Json).data as Json[];
    const intervalBefore = intervalOfItem(items[0]);
    if (changes.status !== undefined) {
      previous.status = sub.status;
      sub.status = changes.status;
    }
    if (changes.cancelAtPeriodEnd !== undefined) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      previous.canceled_at = sub.canceled_at;
      sub.cancel_at_period_end = changes.cancelAtPeriodEnd;
      sub.cancel_at = changes.cancelAtPeriodEnd ? items[0]!.current_period_end : null;
      sub.canceled_at = changes.cancelAtPeriodEnd ? created : null;
    }
    const itemChanges = [
      ...(changes.price !== undefined ? [{ id: items[0]!.id as string, price: changes.price }] : []),
      ...(changes.items ?? []),
    ];
    if (itemChanges.length > 0) previous.items = structuredClone(current.items);
    itemChanges.forEach((change, i) => {
      if (change.id === undefined) {
        if (!change.price) throw invalid("Missing required param: items[price].", `items[${i}][price]`);
        recurringPrice(change.price, `items[${i}][price]`);
        if (items.some((it) => (it.price as Json).id === change.price)) {
          throw invalid("Cannot add multiple subscription items with the same price.", `items[${i}][price]`);
        }
        items.push(itemObject(id, change.price, created));
        return;
      }
      const at = items.findIndex((it) => it.id === change.id);
      if (at < 0) throw missing("subscription_item", change.id, `items[${i}][id]`);
      if (change.deleted) {
        items.splice(at, 1);
        return;
      }
      if (change.price !== undefined) {
        recurringPrice(change.price, `items[${i}][price]`);
        items[at]!.price = priceObject(change.price);
      }
    });
    if (items.length === 0) throw invalid("A subscription must have at least one item.", "items");
    if (changes.metadata) {
      previous.metadata = structuredClone(current.metadata);
      const metadata = { ...(sub.metadata as Json) };
      for (const [k, v] of Object.entries(changes.metadata)) {
        if (v === "") delete metadata[k];
        else metadata[k] = v;
      }
      sub.metadata = metadata;
    }

    const events: StripeEvent[] = [];
    // A new billing interval resets the billing dates and is invoiced at once (Stripe credits
    // the unused time of the old price on that invoice).
    if (intervalBefore !== null && intervalOfItem(items[0]) !== intervalBefore) {
      previous.billing_cycle_anchor = sub.billing_cycle_anchor;
      sub.billing_cycle_anchor = created;
      for (const item of items) {
        const period = intervalOfItem(item) === "year" ? 365 * 86400 : 30 * 86400;
        Object.assign(item, { current_period_start: created, current_period_end: created + period });
      }
      const paid = !declining;
      if (!paid && changes.paymentBehavior === "error_if_incomplete") {
        throw new StripeApiError(402, {
          type: "card_error",
          code: "card_declined",
          message: "Your card was declined.",
        });
      }
      const invoice = invoiceObject(sub, {
        status: paid ? "paid" : "open",
        reason: "subscription_update",
        created,
      });
      sub.latest_invoice = invoice.id;
      if (!paid) {
        previous.status ??= sub.status;
        sub.status = "past_due";
      }
      events.push(
        event(paid ? "invoice.paid" : "invoice.payment_failed", invoice, { created, request: o.request }),
      );
    }
    subscriptions.set(id, sub);
    const e = event("customer.subscription.updated", sub, { created, previous, request: o.request });
    events.unshift(e);
    await maybeDeliver(events, o.deliver, o.request === undefined);
    return e;
  }

  async function cancelSubscription(id: string, o: { deliver?: boolean; created?: number } = {}) {
    const sub = getSubscription(id);
    const created = o.created ?? now();
    Object.assign(sub, {
      status: "canceled",
      canceled_at: sub.canceled_at ?? created,
      ended_at: created,
      cancel_at_period_end: false,
    });
    const e = event("customer.subscription.deleted", sub, { created });
    await maybeDeliver([e], o.deliver);
    return e;
  }

  async function renewal(
    subscriptionId: string,
    outcome: "paid" | "failed",
    o: { deliver?: boolean; created?: number } = {},
  ) {
    const sub = getSubscription(subscriptionId);
    const created = o.created ?? now();
    const invoice = invoiceObject(sub, {
      status: outcome === "paid" ? "paid" : "open",
      reason: "subscription_cycle",
      created,
    });
    sub.latest_invoice = invoice.id;
    const e = event(outcome === "paid" ? "invoice.paid" : "invoice.payment_failed", invoice, { created });
    await maybeDeliver([e], o.deliver);
    return e;
  }

  async function expireSession(sessionId: string, o: { deliver?: boolean; created?: number } = {}) {
    const session = sessions.get(sessionId);
    if (!session) throw missing("checkout.session", sessionId);
    if (session.status !== "open")
      throw invalid("Only Checkout Sessions with a status of `open` can be expired.");
    Object.assign(session, { status: "expired" });
    const e = event("checkout.session.expired", session, { created: o.created });
    await maybeDeliver([e], o.deliver);
    return e;
  }

  // ---- HTTP ----

  function authorize(req: http.IncomingMessage): void {
    const header = req.headers.authorization;
    if (!header) {
      throw new StripeApiError(401, {
        type: "invalid_request_error",
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      });
    }
    const key = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!key.startsWith("sk_test_") || key !== secretKey) {
      throw new StripeApiError(401, {
        type: "invalid_request_error",
        message: `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      });
    }
  }

  async function api(
    req: http.IncomingMessage,
    path: string,
    body: Json,
    request: RequestInfo,
  ): Promise<{ status: number; body: unknown }> {
    authorize(req);
    const method = req.method ?? "GET";
    // The id in a path like /v1/subscriptions/{id}, or null when the path is another one.
    const idIn = (re: RegExp) => {
      const m = path.match(re);
      return m ? decodeURIComponent(m[1]!) : null;
    };
    if (path === "/v1/checkout/sessions" && method === "POST")
      return { status: 200, body: publicView(createSession(body)) };
    const sessionId = idIn(/^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (sessionId && method === "GET") {
      const s = sessions.get(sessionId);
      if (!s) throw missing("checkout.session", sessionId, "session");
      return { status: 200, body: publicView(s) };
    }
    const expiring = idIn(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/);
    if (expiring && method === "POST")
      return { status: 200, body: (await expireSession(expiring)).data.object };
    const subscriptionId = idIn(/^\/v1\/subscriptions\/([^/]+)$/);
    if (subscriptionId && method === "GET") return { status: 200, body: getSubscription(subscriptionId) };
    if (subscriptionId && method === "DELETE") {
      return { status: 200, body: (await cancelSubscription(subscriptionId)).data.object };
    }
    if (subscriptionId && method === "POST") {
      const items = Array.isArray(body.items) ? (body.items as Json[]) : undefined;
      const str = (v: unknown) => (v === undefined ? undefined : String(v));
      const e = await updateSubscription(
        subscriptionId,
        {
          ...(body.cancel_at_period_end !== undefined
            ? { cancelAtPeriodEnd: body.cancel_at_period_end === "true" }
            : {}),
          ...(items
            ? {
                items: items.map((it) => ({
                  id: str(it.id),
                  price: str(it.price),
                  deleted: it.deleted === "true",
                })),
              }
            : {}),
          ...(body.metadata && typeof body.metadata === "object"
            ? { metadata: body.metadata as Record<string, string> }
            : {}),
          prorationBehavior: str(body.proration_behavior),
          paymentBehavior: str(body.payment_behavior),
        },
        { request },
      );
      return { status: 200, body: e.data.object };
    }
    const priceId = idIn(/^\/v1\/prices\/([^/]+)$/);
    if (priceId && method === "GET") {
      if (!prices.has(priceId)) throw missing("price", priceId);
      return { status: 200, body: priceObject(priceId) };
    }
    return {
      status: 404,
      body: {
        error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` },
      },
    };
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const requestId = `req_${rand(14)}`;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        "content-type": "application/json",
        "request-id": requestId,
        "stripe-version": API_VERSION,
      });
      res.end(JSON.stringify(body));
    };
    try {
      // The hosted checkout page: visiting it is the buyer paying (or, with ?cancel=1, backing out).
      const pay_ = url.pathname.match(/^\/c\/pay\/([^/]+)$/);
      if (pay_ && req.method === "GET") {
        const session = sessions.get(decodeURIComponent(pay_[1]!));
        if (!session) {
          res.writeHead(404, { "content-type": "text/plain" });
          return res.end("Checkout session not found");
        }
        if (url.searchParams.get("cancel") === "1") {
          res.writeHead(303, { location: String(session.cancel_url) });
          return res.end();
        }
        if (session.status !== "complete") await pay(String(session.id));
        res.writeHead(303, {
          location: String(session.success_url).replaceAll("{CHECKOUT_SESSION_ID}", String(session.id)),
        });
        return res.end();
      }
      const raw = await readBody(req);
      const body = req.headers["content-type"]?.includes("application/x-www-form-urlencoded")
        ? decodeForm(raw)
        : req.method === "GET" || req.method === "DELETE"
          ? decodeForm(url.search.slice(1))
          : {};
      const key = req.headers["idempotency-key"];
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        body,
        authorization: req.headers.authorization,
        idempotencyKey: typeof key === "string" ? key : undefined,
      });
      const idemKey = typeof key === "string" && req.method === "POST" ? `${url.pathname}:${key}` : null;
      if (idemKey && idempotent.has(idemKey)) {
        const hit = idempotent.get(idemKey)!;
        return send(hit.status, hit.body);
      }
      const answer = await api(req, url.pathname, body, {
        id: requestId,
        idempotencyKey: typeof key === "string" ? key : null,
      });
      if (idemKey && answer.status < 500) idempotent.set(idemKey, answer);
      send(answer.status, answer.body);
    } catch (err) {
      if (err instanceof StripeApiError) return send(err.status, { error: err.body });
      send(500, { error: { type: "api_error", message: String(err) } });
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    secretKey,
    webhookSecret,
    setWebhookTarget: (t) => {
      target = t;
    },
    requests,
    deliveries,
    session: (id) => {
      const s = sessions.get(id);
      return s ? publicView(s) : undefined;
    },
    subscription: (id) => subscriptions.get(id),
    subscriptions: () => [...subscriptions.values()],
    declinePayments: (on) => {
      declining = on;
    },
    pay,
    updateSubscription,
    cancelSubscription,
    renewal,
    expireSession,
    event: (type, object, o) => event(type, object, o),
    deliver,
    signedDelivery,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Decodes Stripe's form encoding: `a[b][0][c]=v` into nested objects and arrays, as the
 * SDK writes it (brackets may arrive encoded or not).
 */
export function decodeForm(raw: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const head = key.match(/^[^[]+/)?.[0] ?? key;
    const path = [head, ...[...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)];
    let node: Json = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) {
        node[segment] = value;
        return;
      }
      node[segment] ??= {};
      node = node[segment] as Json;
    });
  }
  return arraysOf(root) as Json;
}

/** Objects whose keys are 0..n-1 become arrays. */
function arraysOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Json).map(([k, v]) => [k, arraysOf(v)] as const);
  const numeric = entries.length > 0 && entries.every(([k], i) => k === String(i));
  return numeric ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

// ---- wiring for our tests ----

/** Stripe prices for every paid plan of our catalogue, named price_{plan}_{interval}. */
export function catalogueStripePrices(
  catalogue: readonly { id: string; price: number; priceYearly: number | null; oneTimePayment?: number }[],
): { prices: Record<string, StripePrice>; env: Record<string, string> } {
  const prices: Record<string, StripePrice> = {};
  const env: Record<string, string> = {};
  for (const plan of catalogue) {
    if (plan.price === 0 && !plan.oneTimePayment) continue;
    const intervals = [
      ["monthly", "month", plan.oneTimePayment ?? plan.price] as const,
      ...(plan.priceYearly === null ? [] : ([["yearly", "year", plan.priceYearly]] as const)),
    ];
    for (const [interval, stripeInterval, amount] of intervals) {
      const id = `price_${plan.id}_${interval}`;
      prices[id] = {
        unitAmount: Math.round(amount * 100),
        recurring: plan.oneTimePayment ? null : { interval: stripeInterval },
      };
      env[`STRIPE_PRICE_${plan.id.toUpperCase()}_${interval.toUpperCase()}`] = id;
    }
  }
  return { prices, env };
}

/** The variables that point the app's Stripe client at this server. Set before lib/env is first read. */
export function stripeServerEnv(server: StripeServer): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: server.secretKey,
    STRIPE_WEBHOOK_SECRET: server.webhookSecret,
    STRIPE_API_BASE: server.url,
  };
}
