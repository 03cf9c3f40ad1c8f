import "server-only";
import {
  claimMembershipRecheck,
  findMembershipGate,
  setMembershipRecheck,
  upsertMembership,
} from "@/db/queries/payments";
import { counter } from "@/db/queries/rate-limits";
import type { App, AppMembership, AppPaymentConnection } from "@/db/schema";
import { canEditApp } from "@/lib/apps/access";
import { requirePublishedApp } from "@/lib/apps/tenant";
import type { Session } from "@/lib/auth/session";
import {
  MEMBERSHIP_GRACE_S,
  MEMBERSHIP_RECHECK_RETRY_S,
  MEMBERSHIP_RECHECK_S,
  MEMBERSHIP_VERIFY_PER_USER,
  MEMBERSHIP_VERIFY_PER_USER_WINDOW_S,
} from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { openToken } from "@/lib/integrations/token-crypto";
import { logError } from "@/lib/log";
import { GumroadError, listGumroadSales } from "./gumroad";
import { judgePurchase, type PurchaseVerdict } from "./membership-rules";
import type { MembershipProduct, MembershipState } from "./schemas";

// The end user's side of paid memberships: an app with paid memberships on and a Gumroad product
// connected is for members only. An end user proves a purchase with "I've bought it": Gumroad's
// sales of the product to the address they signed in with (a verified one) are read, and a paid,
// unrefunded sale whose subscription is alive makes them a member. Gumroad is asked again once a
// day (a cancellation or a refund ends the membership); while it cannot be reached, a membership
// it confirmed in the last week still counts.

type Gate = NonNullable<Awaited<ReturnType<typeof findMembershipGate>>>;
type Connected = Gate & { connection: AppPaymentConnection };

const verifyCalls = counter(
  "membership-verify",
  MEMBERSHIP_VERIFY_PER_USER,
  MEMBERSHIP_VERIFY_PER_USER_WINDOW_S,
);

const inSeconds = (s: number) => new Date(Date.now() + s * 1000);

const productOf = (c: AppPaymentConnection): MembershipProduct => ({
  id: c.productId,
  name: c.productName,
  url: c.productUrl,
});

/** Memberships are asked for when the settings switch is on and a product is connected. */
const isRequired = (gate: Gate): gate is Connected => gate.enabled && gate.connection !== null;

/** The caller as an end user of this app, or null (anonymous, a builder, another app's user). */
const endUserOf = (app: Pick<App, "id">, session: Session | null) =>
  session && session.tenantId === app.id ? session : null;

type Standing = "member" | "not-member" | "unchecked";

/** Gumroad's verdict on the end user's purchases of the connected product. */
async function askGumroad(connection: AppPaymentConnection, email: string): Promise<PurchaseVerdict> {
  const token = openToken(connection.accessToken);
  // Sealed under another AUTH_SECRET: the builder must connect again; nothing can be checked.
  if (!token) throw new GumroadError("token", "the saved Gumroad token cannot be opened");
  const sales = await listGumroadSales(token, { productId: connection.productId, email });
  return judgePurchase(sales, connection.productId, email);
}

/** Stores Gumroad's verdict: active with the sale, or ended. */
async function record(gate: Connected, userId: string, verdict: PurchaseVerdict) {
  const now = new Date();
  const sale = verdict.kind === "active" ? verdict.sale : null;
  return upsertMembership({
    appId: gate.connection.appId,
    userId,
    productId: gate.connection.productId,
    status: sale ? "active" : "ended",
    saleId: sale?.id ?? null,
    subscriptionId: sale?.subscription_id ?? null,
    verifiedAt: sale ? now : (gate.membership?.verifiedAt ?? now),
    recheckAt: inSeconds(MEMBERSHIP_RECHECK_S),
  });
}

const withinGrace = (m: AppMembership) => m.verifiedAt.getTime() > Date.now() - MEMBERSHIP_GRACE_S * 1000;

/**
 * Whether the stored membership counts now. A due recheck asks Gumroad, once: parallel requests
 * find the recheck taken and go on with the membership as stored.
 */
async function standingOf(gate: Connected, endUser: Session): Promise<Standing> {
  const m = gate.membership;
  if (!m || m.productId !== gate.connection.productId || m.status !== "active") return "not-member";
  if (m.recheckAt.getTime() > Date.now()) return "member";
  const mine = await claimMembershipRecheck(m.appId, m.userId, inSeconds(MEMBERSHIP_RECHECK_RETRY_S));
  if (!mine) return withinGrace(m) ? "member" : "unchecked";
  try {
    const verdict = await askGumroad(gate.connection, endUser.email);
    await record(gate, endUser.userId, verdict);
    return verdict.kind === "active" ? "member" : "not-member";
  } catch (err) {
    if (!(err instanceof GumroadError)) throw err;
    logError("membership recheck failed", { appId: m.appId, userId: m.userId, reason: err.reason, err });
    await setMembershipRecheck(m.appId, m.userId, inSeconds(MEMBERSHIP_RECHECK_RETRY_S));
    return withinGrace(m) ? "member" : "unchecked";
  }
}

/** An app's gate, read for a caller before its turn (readGateAhead). */
export type GateReadAhead = { appId: string; userId: string | null; gate: Promise<Gate | undefined> };

/**
 * Starts reading an app's gate for a caller beside the caller's other lookups (the run route reads
 * it with the app, to spare a round trip before the answer starts). A plain read: the checks, and
 * any recheck with Gumroad, still happen in assertMembership, in their order.
 */
export function readGateAhead(appId: string, session: Session | null): GateReadAhead {
  const userId = session && session.tenantId === appId ? session.userId : null;
  const gate = findMembershipGate(appId, userId);
  // Awaited by assertMembership; a check that refuses the request first leaves it unread.
  gate.catch(() => {});
  return { appId, userId, gate };
}

async function loadGate(app: Pick<App, "id">, userId: string | null, ahead?: GateReadAhead): Promise<Gate> {
  const gate =
    ahead && ahead.appId === app.id && ahead.userId === userId
      ? await ahead.gate
      : await findMembershipGate(app.id, userId);
  if (!gate) throw new AppError("NOT_FOUND", "appNotFound");
  return gate;
}

type Evaluation = {
  required: boolean;
  /** null: the caller is not signed in to this app (and is none of its builders). */
  standing: Standing | null;
  product: MembershipProduct | null;
};

async function evaluate(
  app: Pick<App, "id" | "ownerAccountId">,
  session: Session | null,
  ahead?: GateReadAhead,
): Promise<Evaluation> {
  const endUser = endUserOf(app, session);
  const gate = await loadGate(app, endUser?.userId ?? null, ahead);
  if (!isRequired(gate)) return { required: false, standing: "member", product: null };
  const product = productOf(gate.connection);
  // The app's builders (its owner, admins) always get in: they build and test it.
  if (session && canEditApp(session, app)) return { required: true, standing: "member", product };
  if (!endUser) return { required: true, standing: null, product };
  return { required: true, standing: await standingOf(gate, endUser), product };
}

/**
 * For the run route (and anything else only members may do): passes when the app asks for no
 * membership, for the app's builders and admins, and for end users with an active membership.
 * Throws AppError 401 'Sign in to use this app: it is for members' to callers who are not
 * signed in to this app, 402 'A membership is needed to use this app' (with the `product` to buy
 * beside the error) to end users without one, 502 when Gumroad could not confirm a membership
 * for over a week. `ahead`: the gate as readGateAhead started reading it (read here otherwise).
 */
export async function assertMembership(
  app: Pick<App, "id" | "ownerAccountId">,
  session: Session | null,
  ahead?: GateReadAhead,
): Promise<void> {
  const { required, standing, product } = await evaluate(app, session, ahead);
  if (!required || standing === "member") return;
  if (standing === null) throw new AppError("UNAUTHENTICATED", "membershipSignIn", "MEMBERSHIP_SIGN_IN");
  if (standing === "unchecked") {
    throw new AppError("BAD_GATEWAY", "membershipCheckFailed", "MEMBERSHIP_CHECK_FAILED");
  }
  throw new AppError("PAYMENT_REQUIRED", "membershipRequired", "MEMBERSHIP_REQUIRED", { product });
}

/**
 * GET /api/apps/{appId}/membership, and the public pages: whether the app asks for a membership,
 * whether the caller may use it as a member (always, when none is asked for; always for its
 * builders), and the product to buy. Published apps only (the builder also sees a draft).
 */
export async function loadMembershipState(
  app: Pick<App, "id" | "ownerAccountId">,
  session: Session | null,
): Promise<MembershipState> {
  const { required, standing, product } = await evaluate(app, session);
  return { required, active: standing === "member", product };
}

/** The published app of a membership route. */
export async function membershipApp(appId: string): Promise<App> {
  return requirePublishedApp(appId);
}

/**
 * POST /api/apps/{appId}/membership/verify ("I've bought it"): reads Gumroad's sales of the app's
 * product to the signed-in end user's address and stores the membership. An address nobody
 * proved (a password sign-up not verified yet) is refused: it could be anybody's.
 */
export async function verifyMembership(app: App, session: Session): Promise<MembershipState> {
  const endUser = endUserOf(app, session);
  if (!endUser) throw new AppError("FORBIDDEN", "forbidden");
  if (!endUser.emailVerified) throw new AppError("FORBIDDEN", "emailNotVerified", "auth/email-not-verified");
  const gate = await loadGate(app, endUser.userId);
  if (!isRequired(gate)) throw new AppError("BAD_REQUEST", "membershipNotOffered", "MEMBERSHIP_NOT_OFFERED");
  const product = productOf(gate.connection);
  if (!(await verifyCalls.consume(`${app.id}\n${endUser.userId}`))) {
    throw new AppError("RATE_LIMITED", "tooManyRequests");
  }
  let verdict: PurchaseVerdict;
  try {
    verdict = await askGumroad(gate.connection, endUser.email);
  } catch (err) {
    if (!(err instanceof GumroadError)) throw err;
    logError("membership verify failed", { appId: app.id, reason: err.reason, err });
    throw new AppError("BAD_GATEWAY", "membershipCheckFailed", "MEMBERSHIP_CHECK_FAILED");
  }
  if (verdict.kind === "active" || gate.membership) await record(gate, endUser.userId, verdict);
  if (verdict.kind === "ended") {
    throw new AppError(
      "PAYMENT_REQUIRED",
      { key: "membershipEnded", vars: { product: product.name } },
      "MEMBERSHIP_ENDED",
      { product },
    );
  }
  if (verdict.kind === "none") {
    throw new AppError(
      "PAYMENT_REQUIRED",
      { key: "membershipPurchaseNotFound", vars: { product: product.name, email: endUser.email } },
      "MEMBERSHIP_NOT_FOUND",
      { product },
    );
  }
  return { required: true, active: true, product };
}
