// The authorization matrix: one row per exported handler of every app/api/**/route.ts, with the
// status class each kind of caller must get. tests/integration/authorization-matrix.test.ts runs
// every row for every actor, and fails when a route file or a handler has no row: a new route
// must say here who may call it.
import { expect } from "vitest";
import type { App } from "../../db/schema";
import { startSession } from "../../lib/auth/sessions";
import { createBuilder, createEndUser, createPublishedApp, STRONG_PASSWORD, uniqueEmail } from "./factories";

export const ACTORS = [
  "anonymous",
  "builderA",
  "builderB",
  "unverified",
  "endUserA",
  "endUserB",
  "admin",
] as const;
export type ActorName = (typeof ACTORS)[number];
export type SignedInActor = Exclude<ActorName, "anonymous">;

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** "2xx" and "3xx" are classes; a number is an exact status. */
export type Expected = "2xx" | "3xx" | 400 | 401 | 403 | 404 | 409 | 429;

type ActorInfo = Awaited<ReturnType<typeof createBuilder>>;

export type World = {
  /** published, owned by builderA */
  appA: App;
  /** published, owned by builderB */
  appB: App;
  actors: Record<SignedInActor, ActorInfo>;
  /** another session of builder A, for the row that ends one session */
  builderASessionId: string;
  /** a builder nobody else uses, for the rows that sign in with a password */
  loginUser: { email: string; password: string };
};

export type RequestSpec = {
  path: string;
  params?: Record<string, string | string[]>;
  body?: unknown;
  headers?: Record<string, string>;
};

export type Answer = { status: number; headers: Headers; json: unknown };

/** How a signed-in actor's credential rides along. Our routes read both; Auth.js reads the cookie. */
export type Via = "bearer" | "cookie";

export type Row = {
  file: string;
  method: HttpMethod;
  /** who may call it, in a few words */
  who: string;
  request: (w: World, actor: ActorName) => RequestSpec;
  expect: Record<ActorName, Expected>;
  /** the call ends sessions: each actor calls it with a session of its own, opened for this row */
  freshSession?: boolean;
  /** extra assertions on an answer (e.g. tenant isolation: the data is the caller's own) */
  check?: (res: Answer, actor: ActorName, via: Via | null, w: World) => void;
};

// ---- expectation builders ----

export const everyone = (e: Expected): Record<ActorName, Expected> => ({
  anonymous: e,
  builderA: e,
  builderB: e,
  unverified: e,
  endUserA: e,
  endUserB: e,
  admin: e,
});
/** auth: "user" — any signed-in user, builder or end user */
export const signedIn = (e: Expected = "2xx") => ({ ...everyone(e), anonymous: 401 as const });
/** auth: "builder" — builders of the platform with a verified address; end users of apps are refused */
export const buildersOnly = (e: Expected = "2xx") => ({
  ...signedIn(e),
  unverified: 403 as const,
  endUserA: 403 as const,
  endUserB: 403 as const,
});
/** auth: "admin" */
export const adminsOnly = (e: Expected = "2xx") => ({ ...buildersOnly(403), admin: e });
/** a builder route about app A: its owner (and admins) only; another builder sees no such app */
export const ownerOfAppA = (e: Expected = "2xx", otherBuilder: Expected = 404) => ({
  ...buildersOnly(e),
  builderB: otherBuilder,
});

export async function createWorld(): Promise<World> {
  const builderA = await createBuilder();
  const builderB = await createBuilder();
  const admin = await createBuilder({ isAdmin: true });
  // A builder who signed up but has not verified their address yet.
  const unverified = await createBuilder({ verified: false });
  const appA = await createPublishedApp(builderA.account.accountId, "Matrix App A");
  const appB = await createPublishedApp(builderB.account.accountId, "Matrix App B");
  const endUserA = await createEndUser(appA.id);
  const endUserB = await createEndUser(appB.id);
  const login = await createBuilder();
  const spare = await startSession(builderA.user, { userAgent: "matrix" });
  return {
    appA,
    appB,
    builderASessionId: spare.claims.sid,
    actors: { builderA, builderB, unverified, endUserA, endUserB, admin },
    loginUser: { email: login.user.email, password: STRONG_PASSWORD },
  };
}

const garbageCode = "not-a-real-code";

export const rows: Row[] = [
  // Auth.js. Runs in-process (vitest inlines next-auth so that its "next/server" import resolves).
  {
    file: "app/api/auth/[...nextauth]/route.ts",
    method: "GET",
    who: "anybody; the session of the cookie, if any",
    request: () => ({ path: "/api/auth/session" }),
    expect: everyone("2xx"),
    check: (res, actor, via, w) => {
      const body = res.json as { user?: { id: string } } | null;
      if (actor === "anonymous" || via === "bearer") expect(body).toBeNull();
      else expect(body?.user?.id).toBe(w.actors[actor].user.id);
    },
  },
  {
    file: "app/api/auth/[...nextauth]/route.ts",
    method: "POST",
    who: "anybody, with Auth.js's CSRF token (none here: refused with a redirect)",
    request: () => ({ path: "/api/auth/callback/token", body: { customToken: garbageCode } }),
    expect: everyone("3xx"),
    check: (res) => {
      expect(res.headers.get("location")).toContain("error=MissingCSRF");
    },
  },
  {
    file: "app/api/app/paidPlans/route.ts",
    method: "GET",
    who: "builders; the plan catalogue is the same for every app, so any builder may ask",
    request: (w) => ({ path: `/api/app/paidPlans?appId=${w.appA.id}` }),
    expect: buildersOnly(),
  },
  // A bare benchmark baseline that bypasses route(); inert (404) unless BENCH_ROUTES=1.
  {
    file: "app/api/bench/baseline/route.ts",
    method: "GET",
    who: "nobody unless the server runs with BENCH_ROUTES=1",
    request: (w, actor) => ({
      path: `/api/bench/baseline?id=${actor === "anonymous" ? w.actors.builderA.user.id : w.actors[actor].user.id}`,
    }),
    expect: everyone(404),
  },
  {
    file: "app/api/billing/checkout/route.ts",
    method: "GET",
    who: "builders; only their own sale (anybody else's is not found)",
    request: () => ({ path: "/api/billing/checkout?sale_id=cs_test_matrix_unknown" }),
    expect: buildersOnly(404),
  },
  {
    file: "app/api/billing/checkout/route.ts",
    method: "POST",
    who: "builders, for themselves; the free plan needs no checkout (400, no Stripe call)",
    request: () => ({ path: "/api/billing/checkout", body: { planId: "lite", interval: "monthly" } }),
    expect: buildersOnly(400),
  },
  {
    file: "app/api/dev/outbox/route.ts",
    method: "GET",
    who: "anybody outside production; 404 in production",
    request: () => ({ path: "/api/dev/outbox?to=nobody@example.com" }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/identity/change-password/route.ts",
    method: "POST",
    who: "any signed-in user, for themselves, with their current password (wrong here: 400)",
    request: () => ({
      path: "/api/identity/change-password",
      body: { currentPassword: "not the password 1", newPassword: "a brand new passphrase 8" },
    }),
    expect: signedIn(400),
  },
  {
    file: "app/api/identity/check-reset-code/route.ts",
    method: "POST",
    who: "anybody with a reset link",
    request: () => ({ path: "/api/identity/check-reset-code", body: { oobCode: garbageCode } }),
    expect: everyone(400),
  },
  {
    file: "app/api/identity/request-email-change/route.ts",
    method: "POST",
    who: "any signed-in user, with the current password",
    request: () => ({
      path: "/api/identity/request-email-change",
      body: { newEmail: uniqueEmail("matrix-new"), currentPassword: STRONG_PASSWORD },
    }),
    expect: signedIn(),
  },
  {
    file: "app/api/identity/reset-password/route.ts",
    method: "POST",
    who: "anybody with a reset link",
    request: () => ({
      path: "/api/identity/reset-password",
      body: { oobCode: garbageCode, newPassword: "a fine new passphrase 3" },
    }),
    expect: everyone(400),
  },
  {
    file: "app/api/identity/send-verification-email/route.ts",
    method: "POST",
    who: "any signed-in user (their own address)",
    request: () => ({ path: "/api/identity/send-verification-email", body: {} }),
    expect: signedIn(),
  },
  {
    file: "app/api/identity/sign-in-with-magic-link/route.ts",
    method: "POST",
    who: "anybody with a magic link",
    request: () => ({ path: "/api/identity/sign-in-with-magic-link", body: { oobCode: garbageCode } }),
    expect: everyone(400),
  },
  {
    file: "app/api/identity/sign-in-with-password/route.ts",
    method: "POST",
    who: "anybody with credentials",
    request: (w) => ({ path: "/api/identity/sign-in-with-password", body: w.loginUser }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/identity/sign-up/route.ts",
    method: "POST",
    who: "anybody",
    request: () => ({
      path: "/api/identity/sign-up",
      body: { email: uniqueEmail("matrix-signup"), password: STRONG_PASSWORD },
    }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/identity/sessions/route.ts",
    method: "GET",
    who: "any signed-in user (their own sessions)",
    request: () => ({ path: "/api/identity/sessions" }),
    expect: signedIn(),
    check: (res, actor) => {
      if (actor === "anonymous") return;
      const list = (res.json as { sessions: { current: boolean }[] }).sessions;
      expect(list.filter((s) => s.current)).toHaveLength(1);
    },
  },
  {
    file: "app/api/identity/sessions/route.ts",
    method: "DELETE",
    who: "any signed-in user (signs out everywhere)",
    request: () => ({ path: "/api/identity/sessions" }),
    freshSession: true,
    expect: signedIn(),
  },
  {
    file: "app/api/identity/sessions/[sessionId]/route.ts",
    method: "DELETE",
    who: "any signed-in user, for a session of their own; somebody else's is not found",
    request: (w) => ({
      path: `/api/identity/sessions/${w.builderASessionId}`,
      params: { sessionId: w.builderASessionId },
    }),
    freshSession: true,
    // Only builder A owns that session; the others see no such session.
    expect: { ...signedIn(404), builderA: "2xx" },
  },
  {
    file: "app/api/identity/token/route.ts",
    method: "POST",
    who: "any signed-in user (a token for themselves)",
    request: () => ({ path: "/api/identity/token" }),
    expect: signedIn(),
    check: (res, actor, _via, w) => {
      if (actor === "anonymous") return;
      const tenant = actor === "endUserA" ? w.appA.id : actor === "endUserB" ? w.appB.id : null;
      expect((res.json as { tenantId: string | null }).tenantId).toBe(tenant);
    },
  },
  {
    file: "app/api/identity/verify-email/route.ts",
    method: "POST",
    who: "anybody with a verification link",
    request: () => ({ path: "/api/identity/verify-email", body: { oobCode: garbageCode } }),
    expect: everyone(400),
  },
  {
    file: "app/api/live_api/account/completeEmailChange/route.ts",
    method: "POST",
    who: "anybody with an email-change link",
    request: () => ({
      path: "/api/live_api/account/completeEmailChange",
      body: { newEmail: uniqueEmail(), oobCode: garbageCode },
    }),
    expect: everyone(400),
  },
  {
    file: "app/api/live_api/account/create/route.ts",
    method: "POST",
    who: "any signed-in user (their own account)",
    request: () => ({ path: "/api/live_api/account/create" }),
    expect: signedIn(),
    check: (res, actor, _via, w) => {
      if (actor === "anonymous") return;
      expect((res.json as { accountId: string }).accountId).toBe(w.actors[actor].account.accountId);
    },
  },
  {
    file: "app/api/live_api/account/current/route.ts",
    method: "GET",
    who: "any signed-in user (their own account)",
    request: () => ({ path: "/api/live_api/account/current" }),
    expect: signedIn(),
    check: (res, actor, _via, w) => {
      if (actor === "anonymous") return;
      const a = w.actors[actor];
      expect(res.json).toMatchObject({ accountId: a.account.accountId, email: a.user.email });
      expect((res.json as { isAdmin: boolean }).isAdmin).toBe(actor === "admin");
    },
  },
  {
    file: "app/api/live_api/account/sendMagicLink/route.ts",
    method: "POST",
    who: "anybody, for a published app",
    request: (w) => ({
      path: `/api/live_api/account/sendMagicLink?appId=${w.appA.id}`,
      body: { email: uniqueEmail("matrix-magic") },
    }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/live_api/account/sendResetPasswordEmail/route.ts",
    method: "POST",
    who: "anybody",
    // An unknown address: the answer is the same as for a known one, and no per-address limit is hit.
    request: () => ({ path: "/api/live_api/account/sendResetPasswordEmail", body: { email: uniqueEmail() } }),
    expect: everyone("2xx"),
  },
  {
    file: "app/api/live_api/account/validateOtp/route.ts",
    method: "POST",
    who: "anybody with a code, for a published app",
    request: (w) => ({
      path: `/api/live_api/account/validateOtp?appId=${w.appA.id}`,
      body: { email: uniqueEmail(), otp: "000000" },
    }),
    expect: everyone(400),
  },
  {
    file: "app/api/webhooks/stripe/route.ts",
    method: "POST",
    who: "Stripe: the signature over the raw body is the authorization; unsigned requests are refused",
    request: () => ({
      path: "/api/webhooks/stripe",
      body: { id: "evt_matrix", type: "checkout.session.completed" },
    }),
    expect: everyone(400),
  },
];

/** Does a status fall in the expected class? */
export function matches(status: number, e: Expected): boolean {
  if (e === "2xx") return status >= 200 && status < 300;
  if (e === "3xx") return status >= 300 && status < 400;
  return status === e;
}
