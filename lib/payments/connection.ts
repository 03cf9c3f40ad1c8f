import "server-only";
import {
  deletePaymentConnection,
  findPaymentConnection,
  upsertPaymentConnection,
} from "@/db/queries/payments";
import { counter } from "@/db/queries/rate-limits";
import type { App } from "@/db/schema";
import { loadSettings } from "@/lib/apps/editor-app";
import { assertMaySaveSettings } from "@/lib/apps/save-style-settings";
import type { Session } from "@/lib/auth/session";
import { PAYMENT_CALLS_PER_APP, PAYMENT_CALLS_PER_APP_WINDOW_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { openToken, sealToken } from "@/lib/integrations/token-crypto";
import { logError } from "@/lib/log";
import type { OwnerPlan } from "@/lib/plans/owner-plan";
import { GumroadError, listGumroadProducts, listGumroadSales } from "./gumroad";
import type { ConnectBody, PaymentsState, ProductsAnswer } from "./schemas";

// The builder's side of paid memberships: list the products of a Gumroad
// account, connect one (the token is checked, then stored sealed), resync, disconnect. Who may:
// the app's owner or an admin (the routes' app: "edit"), on a plan that edits settings, as for
// the settings switch itself. The token never leaves the server again.

const gumroadCalls = counter("payments-app", PAYMENT_CALLS_PER_APP, PAYMENT_CALLS_PER_APP_WINDOW_S);

/** Each products list or connect calls Gumroad with the builder's token: a few a minute per app. */
async function reserveGumroadCall(appId: string) {
  if (!(await gumroadCalls.consume(appId))) throw new AppError("RATE_LIMITED", "tooManyRequests");
}

/** Gumroad's refusal as the builder reads it: their token, its scope, or Gumroad being down. */
export function gumroadFailure(err: unknown, appId: string): AppError {
  if (!(err instanceof GumroadError)) throw err;
  if (err.reason === "token") return new AppError("BAD_REQUEST", "gumroadTokenRefused", "GUMROAD_TOKEN");
  if (err.reason === "scope") return new AppError("BAD_REQUEST", "gumroadTokenNoSales", "GUMROAD_SCOPE");
  logError("gumroad call failed", { appId, err });
  return new AppError("BAD_GATEWAY", "gumroadUnavailable", "GUMROAD_UNAVAILABLE");
}

/** The app's saved token in clear, for a call that names none. */
async function savedToken(appId: string): Promise<string> {
  const connection = await findPaymentConnection(appId);
  if (!connection) throw new AppError("BAD_REQUEST", "gumroadTokenMissing", "GUMROAD_TOKEN_MISSING");
  const token = openToken(connection.accessToken);
  // Sealed under another AUTH_SECRET: as good as no token.
  if (!token) throw new AppError("BAD_REQUEST", "gumroadTokenUnreadable", "GUMROAD_TOKEN_MISSING");
  return token;
}

/** Only web addresses become the "buy" link of the public page. */
function webUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** GET /api/apps/{appId}/payments: the paid memberships fields, the token left out. */
export async function loadPaymentsState(app: App): Promise<PaymentsState> {
  const [settings, connection] = await Promise.all([loadSettings(app.id), findPaymentConnection(app.id)]);
  return {
    isPaidMembershipsEnabled: settings.appSettings.isPaidMembershipsEnabled,
    paidMembershipsProduct: connection
      ? { id: connection.productId, name: connection.productName, url: connection.productUrl }
      : null,
    paidMembershipsSettings: {
      paymentProvider: "gumroad",
      hasPaymentProviderAccessToken: connection !== undefined,
      isSetupCompleted: connection !== undefined,
    },
  };
}

/** GET /api/apps/{appId}/payments/products: the Gumroad account's products (id, name). */
export async function listPaymentProducts(
  session: Session,
  app: App,
  owner: OwnerPlan,
  query: { appId?: string; accessToken?: string },
): Promise<ProductsAnswer> {
  if (query.appId && query.appId !== app.id) throw new AppError("BAD_REQUEST", "invalidInput");
  assertMaySaveSettings(session, app, owner);
  const token = query.accessToken ?? (await savedToken(app.id));
  await reserveGumroadCall(app.id);
  try {
    const products = await listGumroadProducts(token);
    return { products: products.map(({ id, name }) => ({ id, name })) };
  } catch (err) {
    throw gumroadFailure(err, app.id);
  }
}

/**
 * POST /api/apps/{appId}/payments/connect: the product end users must buy. The token (the one
 * given, else the saved one) must list the product and be allowed to read its sales, which is
 * how purchases are checked; then the connection is stored and setup is completed. Connecting
 * the connected product again is the resync: its name and link are read again.
 */
export async function connectPayments(
  session: Session,
  app: App,
  owner: OwnerPlan,
  body: ConnectBody,
): Promise<PaymentsState> {
  assertMaySaveSettings(session, app, owner);
  const token = body.accessToken ?? (await savedToken(app.id));
  await reserveGumroadCall(app.id);
  let product: Awaited<ReturnType<typeof listGumroadProducts>>[number] | undefined;
  try {
    product = (await listGumroadProducts(token)).find((p) => p.id === body.productId);
    if (!product) throw new AppError("BAD_REQUEST", "gumroadProductNotFound", "GUMROAD_PRODUCT");
    // One page is enough to know the token may read the sales (a 403 otherwise).
    await listGumroadSales(token, { productId: product.id, maxPages: 1 });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw gumroadFailure(err, app.id);
  }
  await upsertPaymentConnection({
    appId: app.id,
    accessToken: sealToken(token),
    productId: product.id,
    productName: product.name,
    productUrl: webUrl(product.url),
  });
  return loadPaymentsState(app);
}

/** DELETE /api/apps/{appId}/payments: forgets the token and the product. */
export async function disconnectPayments(app: App): Promise<PaymentsState> {
  await deletePaymentConnection(app.id);
  return loadPaymentsState(app);
}
