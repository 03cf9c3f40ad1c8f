import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as membershipRoute from "@/app/api/apps/[appId]/membership/route";
import * as verifyRoute from "@/app/api/apps/[appId]/membership/verify/route";
import * as connectRoute from "@/app/api/apps/[appId]/payments/connect/route";
import * as productsRoute from "@/app/api/apps/[appId]/payments/products/route";
import * as paymentsRoute from "@/app/api/apps/[appId]/payments/route";
import * as appRoute from "@/app/api/apps/[appId]/route";
import * as settingsRoute from "@/app/api/apps/[appId]/settings/route";
import { db } from "@/db/client";
import { insertUser } from "@/db/queries/users";
import { type App, appMemberships, appPaymentConnections } from "@/db/schema";
import { loadSession } from "@/lib/auth/session";
import { MEMBERSHIP_VERIFY_PER_USER } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { openToken } from "@/lib/integrations/token-crypto";
import { messages } from "@/lib/messages";
import { assertMembership } from "@/lib/payments/membership";
import type { MembershipState, PaymentsState } from "@/lib/payments/schemas";
import { fillTemplate } from "@/lib/text";
import {
  createBuilder,
  createEndUser,
  createPublishedApp,
  tokenFor,
  uniqueEmail,
} from "../support/factories";
import {
  GUMROAD_PRODUCTS,
  GUMROAD_PUBLIC_ONLY_TOKEN,
  type GumroadServer,
  gumroadServerEnv,
  startGumroadServer,
} from "../support/gumroad-server";
import { type Answer, call } from "../support/http";

// Paid memberships through Gumroad's real HTTP API, answered by a local server that speaks it
// (tests/support/gumroad-server.ts): the builder lists products and connects one, the token is
// stored sealed and never answered; end users prove a purchase by their address, cancelled,
// ended or refunded purchases do not count, and assertMembership (the run route's check) lets
// members and the app's builders through. lib/env reads the environment once: set it first.
const gumroad: GumroadServer = await startGumroadServer();
Object.assign(process.env, gumroadServerEnv(gumroad));
afterAll(() => gumroad.close());

type Builder = Awaited<ReturnType<typeof createBuilder>>;
const { membership, lifetime } = GUMROAD_PRODUCTS;

const products = (b: Builder, appId: string, accessToken?: string) =>
  call<Answer & { products: { id: string; name: string }[] }>(productsRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/payments/products?appId=${appId}${accessToken ? `&accessToken=${encodeURIComponent(accessToken)}` : ""}`,
    params: { appId },
    token: b.token,
  });

const connect = (b: Builder, appId: string, body: { productId: string; accessToken?: string }) =>
  call<Answer & PaymentsState>(connectRoute.POST, {
    path: `/api/apps/${appId}/payments/connect`,
    params: { appId },
    token: b.token,
    body,
  });

const paymentsState = (b: Builder, appId: string) =>
  call<Answer & PaymentsState>(paymentsRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/payments`,
    params: { appId },
    token: b.token,
  });

const membershipOf = (appId: string, token?: string) =>
  call<Answer & MembershipState>(membershipRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/membership`,
    params: { appId },
    token,
  });

const verify = (appId: string, token: string) =>
  call<Answer & MembershipState & { product?: { name: string } }>(verifyRoute.POST, {
    path: `/api/apps/${appId}/membership/verify`,
    params: { appId },
    token,
  });

async function saveSettings(b: Builder, appId: string, appSettings: Record<string, unknown>) {
  const editor = await call<{ settings: { revision: number } }>(appRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}`,
    params: { appId },
    token: b.token,
  });
  const res = await call(settingsRoute.POST, {
    path: `/api/apps/${appId}/settings`,
    params: { appId },
    token: b.token,
    body: { baseRevision: editor.json.settings.revision, appSettings },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** A published app with sign-up and paid memberships on, connected to `productId` (none: not connected). */
async function membershipApp(productId: string | null = membership.id) {
  const builder = await createBuilder({ plan: "explorer" });
  const app = await createPublishedApp(builder.account.accountId, "Members Only");
  await saveSettings(builder, app.id, {
    customDomain: "members.example.com",
    isSignupEnabled: true,
    isPaidMembershipsEnabled: true,
  });
  if (productId) {
    const res = await connect(builder, app.id, { productId, accessToken: gumroad.token });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  }
  return { builder, app };
}

const sessionOf = async (token: string) => (await loadSession(token, "bearer"))!;

async function refusal(app: App, token: string | null) {
  try {
    await assertMembership(app, token ? await sessionOf(token) : null);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  return null;
}

const membershipRow = async (appId: string, userId: string) =>
  (
    await db()
      .select()
      .from(appMemberships)
      .where(and(eq(appMemberships.appId, appId), eq(appMemberships.userId, userId)))
  )[0];

/** The recheck time has come (a day has passed since Gumroad confirmed the membership). */
const makeRecheckDue = (appId: string, userId: string, verifiedDaysAgo = 1) =>
  db()
    .update(appMemberships)
    .set({
      recheckAt: sql`now() - interval '1 second'`,
      verifiedAt: sql`now() - make_interval(days => ${verifiedDaysAgo})`,
    })
    .where(and(eq(appMemberships.appId, appId), eq(appMemberships.userId, userId)));

const salesCalls = () => gumroad.calls.filter((c) => c.startsWith("GET /v2/sales")).length;

beforeEach(() => {
  gumroad.calls.length = 0;
});

describe("builder: products and connect", () => {
  it("lists the Gumroad account's products (id, name) with the token being typed", async () => {
    const builder = await createBuilder({ plan: "explorer" });
    const app = await createPublishedApp(builder.account.accountId);
    const res = await products(builder, app.id, gumroad.token);
    expect(res.status).toBe(200);
    expect(res.json.products).toEqual([
      { id: membership.id, name: membership.name },
      { id: lifetime.id, name: lifetime.name },
      { id: GUMROAD_PRODUCTS.draft.id, name: GUMROAD_PRODUCTS.draft.name },
    ]);
    expect(gumroad.calls).toEqual(["GET /v2/products"]);
  });

  it("a token Gumroad refuses, Gumroad down, no token at all: each says so", async () => {
    const builder = await createBuilder({ plan: "explorer" });
    const app = await createPublishedApp(builder.account.accountId);
    const wrong = await products(builder, app.id, "not-a-gumroad-token");
    expect(wrong.status).toBe(400);
    expect(wrong.json.error?.message).toBe(messages.gumroadTokenRefused);

    gumroad.failNextCall();
    const down = await products(builder, app.id, gumroad.token);
    expect(down.status).toBe(502);
    expect(down.json.error?.message).toBe(messages.gumroadUnavailable);

    const none = await products(builder, app.id);
    expect(none.status).toBe(400);
    expect(none.json.error?.message).toBe(messages.gumroadTokenMissing);

    const otherApp = await call(productsRoute.GET, {
      method: "GET",
      path: `/api/apps/${app.id}/payments/products?appId=${crypto.randomUUID()}&accessToken=x`,
      params: { appId: app.id },
      token: builder.token,
    });
    expect(otherApp.status).toBe(400);
  });

  it("a token with a NUL, an emoji, a space or a line break is 400 with its message; Gumroad is not called", async () => {
    const builder = await createBuilder({ plan: "explorer" });
    const app = await createPublishedApp(builder.account.accountId);
    const issues = (a: { json: Answer }) =>
      (a.json.error as { issues?: { message: string }[] } | undefined)?.issues ?? [];
    for (const bad of ["abc\u0000def", "abc\u{1F600}def", "abc def", "abc\ndef", "\u00e9t\u00e9"]) {
      const listed = await products(builder, app.id, bad);
      expect(listed.status, JSON.stringify(bad)).toBe(400);
      expect(issues(listed).map((i) => i.message)).toContain(messages.gumroadTokenMalformed);
      const connected = await connect(builder, app.id, { productId: membership.id, accessToken: bad });
      expect(connected.status, JSON.stringify(bad)).toBe(400);
      expect(issues(connected).map((i) => i.message)).toContain(messages.gumroadTokenMalformed);
    }
    expect(gumroad.calls).toEqual([]);
  });

  it("lite cannot set up payments (the settings panel is for paid plans)", async () => {
    const lite = await createBuilder();
    const app = await createPublishedApp(lite.account.accountId);
    const res = await products(lite, app.id, gumroad.token);
    expect(res.status).toBe(403);
    expect(res.json.error?.message).toBe(messages.upgradeToEditToolSettings);
    const connected = await connect(lite, app.id, { productId: membership.id, accessToken: gumroad.token });
    expect(connected.status).toBe(403);
    expect(gumroad.calls).toEqual([]);
  });

  it("connects a product: setup completed, the token sealed in the database and never answered", async () => {
    const { builder, app } = await membershipApp(null);
    const before = await paymentsState(builder, app.id);
    expect(before.json).toEqual({
      isPaidMembershipsEnabled: true,
      paidMembershipsProduct: null,
      paidMembershipsSettings: {
        paymentProvider: "gumroad",
        hasPaymentProviderAccessToken: false,
        isSetupCompleted: false,
      },
    });

    const res = await connect(builder, app.id, { productId: membership.id, accessToken: gumroad.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      isPaidMembershipsEnabled: true,
      paidMembershipsProduct: { id: membership.id, name: membership.name, url: `${gumroad.url}/l/pro` },
      paidMembershipsSettings: {
        paymentProvider: "gumroad",
        hasPaymentProviderAccessToken: true,
        isSetupCompleted: true,
      },
    });
    // The token was checked against the products and the product's sales.
    expect(gumroad.calls).toEqual([
      "GET /v2/products",
      `GET /v2/sales?product_id=${encodeURIComponent(membership.id)}`,
    ]);

    const [row] = await db()
      .select()
      .from(appPaymentConnections)
      .where(eq(appPaymentConnections.appId, app.id));
    expect(row!.accessToken).not.toContain(gumroad.token);
    expect(openToken(row!.accessToken)).toBe(gumroad.token);

    // Nothing the builder or anybody else reads carries it.
    const answers = [
      res.json,
      (await paymentsState(builder, app.id)).json,
      (await products(builder, app.id)).json,
      (
        await call(appRoute.GET, {
          method: "GET",
          path: `/api/apps/${app.id}`,
          params: { appId: app.id },
          token: builder.token,
        })
      ).json,
      (await membershipOf(app.id)).json,
    ];
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(gumroad.token);
  });

  it("refuses a token that cannot read sales, and a product not in the account", async () => {
    const { builder, app } = await membershipApp(null);
    const scope = await connect(builder, app.id, {
      productId: membership.id,
      accessToken: GUMROAD_PUBLIC_ONLY_TOKEN,
    });
    expect(scope.status).toBe(400);
    expect(scope.json.error?.message).toBe(messages.gumroadTokenNoSales);

    const unknown = await connect(builder, app.id, {
      productId: "AAAAAAAAAAAAAAAAAAAAAA==",
      accessToken: gumroad.token,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error?.message).toBe(messages.gumroadProductNotFound);

    const noToken = await connect(builder, app.id, { productId: membership.id });
    expect(noToken.status).toBe(400);
    expect(noToken.json.error?.message).toBe(messages.gumroadTokenMissing);
    expect((await paymentsState(builder, app.id)).json.paidMembershipsSettings.isSetupCompleted).toBe(false);
  });

  it("changes the product and resyncs with the saved token; disconnect forgets it", async () => {
    const { builder, app } = await membershipApp();
    const listed = await products(builder, app.id);
    expect(listed.status).toBe(200);
    expect(listed.json.products).toHaveLength(3);

    const changed = await connect(builder, app.id, { productId: lifetime.id });
    expect(changed.status).toBe(200);
    expect(changed.json.paidMembershipsProduct?.name).toBe(lifetime.name);
    const resynced = await connect(builder, app.id, { productId: lifetime.id });
    expect(resynced.status).toBe(200);
    expect(resynced.json.paidMembershipsProduct).toEqual(changed.json.paidMembershipsProduct);

    // A revoked token: the resync says so and keeps the connection as it was.
    const revocable = gumroad.issueToken();
    expect((await connect(builder, app.id, { productId: lifetime.id, accessToken: revocable })).status).toBe(
      200,
    );
    gumroad.revokeToken(revocable);
    const revoked = await connect(builder, app.id, { productId: lifetime.id });
    expect(revoked.status).toBe(400);
    expect(revoked.json.error?.message).toBe(messages.gumroadTokenRefused);
    expect((await paymentsState(builder, app.id)).json.paidMembershipsSettings.isSetupCompleted).toBe(true);

    const gone = await call<PaymentsState>(paymentsRoute.DELETE, {
      method: "DELETE",
      path: `/api/apps/${app.id}/payments`,
      params: { appId: app.id },
      token: builder.token,
    });
    expect(gone.status).toBe(200);
    expect(gone.json.paidMembershipsProduct).toBeNull();
    expect(gone.json.paidMembershipsSettings.hasPaymentProviderAccessToken).toBe(false);
    expect(
      await db().select().from(appPaymentConnections).where(eq(appPaymentConnections.appId, app.id)),
    ).toEqual([]);
    // Nothing to ask for without a product.
    expect((await membershipOf(app.id)).json).toEqual({ required: false, active: true, product: null });
  });

  it("paid memberships need signup enabled", async () => {
    const builder = await createBuilder({ plan: "explorer" });
    const app = await createPublishedApp(builder.account.accountId);
    const editor = await call<{ settings: { revision: number } }>(appRoute.GET, {
      method: "GET",
      path: `/api/apps/${app.id}`,
      params: { appId: app.id },
      token: builder.token,
    });
    const res = await call(settingsRoute.POST, {
      path: `/api/apps/${app.id}/settings`,
      params: { appId: app.id },
      token: builder.token,
      body: { baseRevision: editor.json.settings.revision, appSettings: { isPaidMembershipsEnabled: true } },
    });
    expect(res.status).toBe(400);
    expect((res.json as Answer).error?.message).toBe(messages.paidMembershipsNeedSignup);
  });
});

describe("end users: verify a purchase, assertMembership", () => {
  it("an end user without a purchase is offered the product and refused; a verified purchase lets them in", async () => {
    const { builder, app } = await membershipApp();
    const user = await createEndUser(app.id);

    const state = await membershipOf(app.id, user.token);
    expect(state.json).toEqual({
      required: true,
      active: false,
      product: { id: membership.id, name: membership.name, url: `${gumroad.url}/l/pro` },
    });
    const refused = await refusal(app, user.token);
    expect(refused?.status).toBe(402);
    expect(refused?.message).toBe(messages.membershipRequired);

    const notFound = await verify(app.id, user.token);
    expect(notFound.status).toBe(402);
    expect(notFound.json.error?.message).toBe(
      fillTemplate(messages.membershipPurchaseNotFound, { product: membership.name, email: user.user.email }),
    );
    expect(notFound.json.product?.name).toBe(membership.name);

    // The buyer typed their address with capitals at Gumroad's checkout.
    gumroad.addSale({ email: user.user.email.toUpperCase(), productId: membership.id });
    const verified = await verify(app.id, user.token);
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ required: true, active: true });
    expect(await refusal(app, user.token)).toBeNull();
    expect((await membershipOf(app.id, user.token)).json.active).toBe(true);
    const row = await membershipRow(app.id, user.user.id);
    expect(row).toMatchObject({ status: "active", productId: membership.id });
    expect(row!.subscriptionId).toBeTruthy();
    expect(row!.recheckAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);

    // The app's builders and admins always get in; nobody else without signing in to the app.
    expect(await refusal(app, builder.token)).toBeNull();
    expect(await refusal(app, (await createBuilder({ isAdmin: true })).token)).toBeNull();
    expect((await refusal(app, null))?.message).toBe(messages.membershipSignIn);
    expect((await refusal(app, (await createBuilder()).token))?.status).toBe(401);
    const otherApp = await createPublishedApp(builder.account.accountId);
    expect((await refusal(app, (await createEndUser(otherApp.id)).token))?.status).toBe(401);
  });

  it("a cancelled subscription is refused: at the next recheck and when verifying again", async () => {
    const { app } = await membershipApp();
    const user = await createEndUser(app.id);
    const sale = gumroad.addSale({ email: user.user.email, productId: membership.id });
    expect((await verify(app.id, user.token)).status).toBe(200);

    gumroad.cancelSubscription(sale.id);
    gumroad.calls.length = 0;
    // Until the recheck is due, the stored membership counts, with no call to Gumroad.
    expect(await refusal(app, user.token)).toBeNull();
    expect(salesCalls()).toBe(0);

    await makeRecheckDue(app.id, user.user.id);
    const refused = await refusal(app, user.token);
    expect(refused?.status).toBe(402);
    expect(salesCalls()).toBe(1);
    expect((await membershipRow(app.id, user.user.id))?.status).toBe("ended");

    const again = await verify(app.id, user.token);
    expect(again.status).toBe(402);
    expect(again.json.error?.message).toBe(
      fillTemplate(messages.membershipEnded, { product: membership.name }),
    );
  });

  it("cancelled at the end of the paid period still counts; failed, refunded or charged back does not", async () => {
    const { app } = await membershipApp();
    const pending = await createEndUser(app.id);
    const sale = gumroad.addSale({ email: pending.user.email, productId: membership.id });
    gumroad.cancelSubscription(sale.id, { atPeriodEnd: true });
    expect((await verify(app.id, pending.token)).json.active).toBe(true);

    const failed = await createEndUser(app.id);
    gumroad.failSubscription(gumroad.addSale({ email: failed.user.email, productId: membership.id }).id);
    expect((await verify(app.id, failed.token)).json.error?.message).toBe(
      fillTemplate(messages.membershipEnded, { product: membership.name }),
    );

    const refunded = await createEndUser(app.id);
    gumroad.refund(gumroad.addSale({ email: refunded.user.email, productId: membership.id }).id);
    expect((await verify(app.id, refunded.token)).status).toBe(402);

    const disputed = await createEndUser(app.id);
    gumroad.addSale({
      email: disputed.user.email,
      productId: membership.id,
      chargedback: true,
      disputed: true,
    });
    expect((await verify(app.id, disputed.token)).status).toBe(402);

    // A purchase of another product of the account is not this app's membership.
    const other = await createEndUser(app.id);
    gumroad.addSale({ email: other.user.email, productId: lifetime.id });
    expect((await verify(app.id, other.token)).status).toBe(402);
  });

  it("finds a purchase behind several pages of the buyer's other sales", async () => {
    const { app } = await membershipApp(lifetime.id);
    const user = await createEndUser(app.id);
    const long = Date.now() - 90 * 24 * 3600 * 1000;
    gumroad.addSale({ email: user.user.email, productId: lifetime.id, createdAt: new Date(long) });
    for (let i = 0; i < 23; i++) {
      gumroad.addSale({
        email: user.user.email,
        productId: lifetime.id,
        refunded: true,
        createdAt: new Date(long + (i + 1) * 60_000),
      });
    }
    gumroad.calls.length = 0;
    const res = await verify(app.id, user.token);
    expect(res.status).toBe(200);
    expect(salesCalls()).toBe(3);
    // A one-time purchase has no subscription.
    expect((await membershipRow(app.id, user.user.id))?.subscriptionId).toBeNull();
  });

  it("Gumroad down at a recheck: a membership confirmed within a week still counts, an older one is not taken on trust", async () => {
    const { app } = await membershipApp();
    const user = await createEndUser(app.id);
    gumroad.addSale({ email: user.user.email, productId: membership.id });
    expect((await verify(app.id, user.token)).status).toBe(200);

    await makeRecheckDue(app.id, user.user.id, 2);
    gumroad.failNextCall();
    expect(await refusal(app, user.token)).toBeNull();
    const row = await membershipRow(app.id, user.user.id);
    // Tried again in an hour, not at every request.
    expect(row!.recheckAt.getTime()).toBeGreaterThan(Date.now() + 50 * 60 * 1000);
    expect(row!.recheckAt.getTime()).toBeLessThan(Date.now() + 2 * 3600 * 1000);

    await makeRecheckDue(app.id, user.user.id, 8);
    gumroad.failNextCall();
    const refused = await refusal(app, user.token);
    expect(refused?.status).toBe(502);
    expect(refused?.message).toBe(messages.membershipCheckFailed);

    // Gumroad answers again: confirmed, counted, verified now.
    await makeRecheckDue(app.id, user.user.id, 8);
    expect(await refusal(app, user.token)).toBeNull();
    expect((await membershipRow(app.id, user.user.id))!.verifiedAt.getTime()).toBeGreaterThan(
      Date.now() - 60_000,
    );
  });

  it("a due recheck makes one call to Gumroad, however many runs start at once", async () => {
    const { app } = await membershipApp();
    const user = await createEndUser(app.id);
    gumroad.addSale({ email: user.user.email, productId: membership.id });
    expect((await verify(app.id, user.token)).status).toBe(200);
    await makeRecheckDue(app.id, user.user.id);
    gumroad.calls.length = 0;
    const session = await sessionOf(user.token);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => assertMembership(app, session)),
    );
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(salesCalls()).toBe(1);
  });

  it("changing the product: a membership of the old one no longer counts", async () => {
    const { builder, app } = await membershipApp();
    const user = await createEndUser(app.id);
    gumroad.addSale({ email: user.user.email, productId: membership.id });
    expect((await verify(app.id, user.token)).status).toBe(200);
    expect((await connect(builder, app.id, { productId: lifetime.id })).status).toBe(200);
    expect((await refusal(app, user.token))?.status).toBe(402);
    expect((await membershipOf(app.id, user.token)).json).toMatchObject({
      required: true,
      active: false,
      product: { name: lifetime.name },
    });
  });

  it("verify: only the app's own end users, with a proven address, and only when memberships are asked for", async () => {
    const { builder, app } = await membershipApp();
    // A password sign-up whose address nobody proved yet could be anybody's.
    const unverified = (await insertUser({
      tenantId: app.id,
      email: uniqueEmail("unproven"),
      emailVerifiedAt: null,
    }))!;
    gumroad.addSale({ email: unverified.email, productId: membership.id });
    const res = await verify(app.id, await tokenFor(unverified));
    expect(res.status).toBe(403);
    expect(res.json.error?.message).toBe(messages.emailNotVerified);

    expect((await verify(app.id, builder.token)).status).toBe(403);
    const otherApp = await createPublishedApp(builder.account.accountId);
    expect((await verify(app.id, (await createEndUser(otherApp.id)).token)).status).toBe(403);

    const free = await createEndUser(otherApp.id);
    const notOffered = await verify(otherApp.id, free.token);
    expect(notOffered.status).toBe(400);
    expect(notOffered.json.error?.message).toBe(messages.membershipNotOffered);
    // Without paid memberships everybody passes.
    expect(await refusal(otherApp, free.token)).toBeNull();
    expect(await refusal(otherApp, null)).toBeNull();
    expect((await membershipOf(otherApp.id)).json).toEqual({ required: false, active: true, product: null });
  });

  it(`"I've bought it" is limited to ${MEMBERSHIP_VERIFY_PER_USER} checks per end user in ten minutes`, async () => {
    const { app } = await membershipApp();
    const user = await createEndUser(app.id);
    for (let i = 0; i < MEMBERSHIP_VERIFY_PER_USER; i++)
      expect((await verify(app.id, user.token)).status).toBe(402);
    const limited = await verify(app.id, user.token);
    expect(limited.status).toBe(429);
    expect(limited.json.error?.message).toBe(messages.tooManyRequests);
  });

  it("a switched-on setting without a connected product asks nobody for a membership", async () => {
    const { app } = await membershipApp(null);
    const user = await createEndUser(app.id);
    expect((await membershipOf(app.id, user.token)).json).toEqual({
      required: false,
      active: true,
      product: null,
    });
    expect(await refusal(app, user.token)).toBeNull();
  });
});
