import "server-only";
import Stripe from "stripe";
import { findCheckoutSaleOfUser, findStripeCustomerId, insertCheckoutSale } from "@/db/queries/billing";
import type { Session } from "@/lib/auth/session";
import { MAIN_PAGE, SALE_ID_PARAM, UPGRADE_GOTO_PARAM, UPGRADE_GOTO_VALUE } from "@/lib/constants";
import { appOrigin } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { findPlan } from "@/lib/plans/catalogue";
import type { CheckoutAnswer } from "@/lib/plans/schemas";
import { stripePriceId } from "@/lib/plans/stripe-prices";
import { changesRunningSubscription, checkoutBlocker, isOneTimePlan } from "./availability";
import { changeSubscriptionPlan, findLiveSubscription, planChangeQuestion } from "./plan-change";
import type { CheckoutRequest, SaleStatusAnswer } from "./schemas";
import { stripeClient } from "./stripe";

/**
 * POST /api/billing/checkout: buys a paid plan.
 * - No subscription running (or a one-time plan): a Stripe Checkout Session, recorded as a
 *   pending sale; the buyer comes back to /home?sale_id={the session id}.
 * - A subscription running (active, trialing, past_due) and a recurring plan: that one
 *   subscription is switched to the new price, prorated, never a second one sold beside it.
 *   Without `confirmChange` nothing changes yet: the answer is the question to confirm.
 * Either way the plan changes only when Stripe's signed webhook says so.
 */
export async function createCheckout(session: Session, body: CheckoutRequest): Promise<CheckoutAnswer> {
  const blocker = checkoutBlocker(body.planId, body.interval);
  if (blocker) throw blocker;
  const plan = findPlan(body.planId);
  const oneTime = isOneTimePlan(plan);
  const price = stripePriceId(plan.id, body.interval)!;

  if (session.account && changesRunningSubscription(plan, session.account)) {
    const live = await findLiveSubscription(session.account);
    if (live) {
      if (live.priceId === price) {
        throw new AppError("CONFLICT", "planChangeAlreadyCurrent", "ALREADY_ON_PLAN");
      }
      if (!body.confirmChange) return planChangeQuestion(session.account.plan, plan, live, body.interval);
      return changeSubscriptionPlan(session, live, plan, body.interval, price);
    }
  }

  const metadata: Record<string, string> = {
    userId: session.userId,
    planId: plan.id,
    interval: body.interval,
    ...(session.account ? { accountId: session.account.accountId } : {}),
  };
  const customer = session.account ? await findStripeCustomerId(session.account.accountId) : null;
  // Links are built from APP_URL, never from the request's Host header. Stripe replaces
  // {CHECKOUT_SESSION_ID} itself, so it is written literally, not URL-encoded.
  const origin = appOrigin();
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: oneTime ? "payment" : "subscription",
    line_items: [{ price, quantity: 1 }],
    client_reference_id: session.userId,
    ...(customer ? { customer } : { customer_email: session.email }),
    metadata,
    ...(oneTime
      ? { payment_intent_data: { metadata }, ...(customer ? {} : { customer_creation: "always" as const }) }
      : { subscription_data: { metadata } }),
    success_url: `${origin}${MAIN_PAGE}?${SALE_ID_PARAM}={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}${MAIN_PAGE}?${UPGRADE_GOTO_PARAM}=${UPGRADE_GOTO_VALUE}`,
  };

  let checkout: Stripe.Checkout.Session;
  try {
    checkout = await createSession(params, session.email);
  } catch (err) {
    logError("stripe checkout session failed", { err, userId: session.userId, plan: plan.id });
    throw new AppError("INTERNAL", "checkoutFailed", "CHECKOUT_FAILED");
  }
  if (!checkout.url) {
    logError("stripe checkout session has no url", { sessionId: checkout.id });
    throw new AppError("INTERNAL", "checkoutFailed", "CHECKOUT_FAILED");
  }
  await insertCheckoutSale({
    saleId: checkout.id,
    userId: session.userId,
    email: session.email,
    plan: plan.id,
    interval: body.interval,
  });
  return { kind: "checkout", url: checkout.url };
}

/**
 * Creates the session. A remembered customer Stripe no longer knows (deleted, or kept from
 * test mode after switching to live keys) must not block every later checkout: the session is
 * then made for the email address, and its completion records the new customer.
 */
async function createSession(params: Stripe.Checkout.SessionCreateParams, email: string) {
  const stripe = stripeClient();
  try {
    return await stripe.checkout.sessions.create(params);
  } catch (err) {
    if (
      !(params.customer && err instanceof Stripe.errors.StripeInvalidRequestError && err.param === "customer")
    ) {
      throw err;
    }
    const { customer: _gone, ...rest } = params;
    const oneTime = params.mode === "payment";
    return stripe.checkout.sessions.create({
      ...rest,
      customer_email: email,
      ...(oneTime ? { customer_creation: "always" } : {}),
    });
  }
}

/** GET /api/billing/checkout?sale_id=: where the caller's own sale stands. */
export async function getSaleStatus(session: Session, saleId: string): Promise<SaleStatusAnswer> {
  const sale = await findCheckoutSaleOfUser(saleId, session.userId);
  if (!sale) throw new AppError("NOT_FOUND", "paymentNotFound", "SALE_NOT_FOUND");
  return { saleId: sale.saleId, status: sale.status, plan: sale.plan };
}
