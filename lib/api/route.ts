import "server-only";
import crypto from "node:crypto";
import type { NextRequest } from "next/server";
import { ZodError, type z } from "zod";
import type { App } from "@/db/schema";
import { type EditedApp, loadEditableApp } from "@/lib/apps/access";
import { loadSession, readSessionToken, type Session } from "@/lib/auth/session";
import { appOrigin } from "@/lib/env";
import { AppError, type ErrorBody, type errorStatus } from "@/lib/errors";
import { logError } from "@/lib/log";
import { type MessageKey, messages } from "@/lib/messages";
import type { OwnerPlan } from "@/lib/plans/owner-plan";
import { clientIp } from "@/lib/security/client-ip";
import { apiSecurityHeaders } from "@/lib/security/headers";
import { BODY_CAP_MESSAGES, BODY_CAPS, type BodyCap } from "./body-caps";
import { runtimeCorsHeaders } from "./cors";
import { assertDeclaredLength, readBodyCapped } from "./read-body";

/**
 * Who may call a route:
 * - public: anybody (a session is read if present)
 * - user: any signed-in user, builder or end user of an app
 * - builder: a signed-in builder of the platform (not an end user of an app)
 * - admin: a builder whose account has isAdmin
 * - appToken: a space app's own code (its data API): no cookie is read; the handler gets the
 *   `Authorization: Bearer` app token, if any, and decides (lib/app-data); answers carry CORS
 *   headers for the app's sandboxed frame (lib/api/cors.ts)
 */
export type AuthMode = "public" | "user" | "builder" | "admin" | "appToken";

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.infer<S> : undefined;

type Options<Q, B, P> = {
  auth: AuthMode;
  query?: Q;
  body?: B;
  params?: P;
  /** The body's size limit (lib/api/body-caps.ts); JSON routes by default. */
  cap?: BodyCap;
  /** Hand the handler the body's bytes, unparsed (a signature is checked over them). */
  raw?: boolean;
  /**
   * The app named by the path's `appId` (or else the query's), loaded for the caller: "edit" = its owner, or an admin.
   * Anybody else gets 404, as if the app did not exist (its id reveals nothing).
   */
  app?: "edit";
  /**
   * The message of that 404, when the route's callers need their own (the context ingest routes:
   * 'Please save your app first before adding context'); the generic not-found otherwise.
   */
  appNotFound?: MessageKey;
  /** One line for the API document (/api/openapi.json). */
  summary?: string;
  /** The success answer is a stream of this content type, described so (the API document). */
  stream?: { contentType: string; description: string };
  /**
   * The success answer's JSON, as a zod schema of what the client receives (dates as strings).
   * The API document declares it; outside production every answer is checked against it, so a
   * test that calls the route fails when the two part.
   */
  response?: Schema;
  /**
   * The error statuses the handler itself answers (409 on a lost save, 429 when rate limited,
   * 502 when the model fails...). Those the wrapper answers (400, 401, 403, 404 of `app`, 413)
   * are declared without being listed here.
   */
  errors?: readonly ErrorStatus[];
  /** The body is a file's bytes of these media types (an upload), read unparsed by the service. */
  upload?: readonly string[];
  /**
   * The parts of a multipart/form-data upload, by name, each with one line for the API document
   * (the part named `file` is the file's bytes, the others text); read by the service.
   */
  parts?: Readonly<Record<string, string>>;
  /**
   * Answers of the 3xx class the handler gives, each described for the API document: a redirect
   * (302 to a provider's consent page), 304 when the client's copy is current.
   */
  redirects?: Partial<Record<301 | 302 | 303 | 304 | 307 | 308, string>>;
};

/** A status an error answer may have (lib/errors.ts maps each kind to one). */
export type ErrorStatus = Exclude<(typeof errorStatus)[keyof typeof errorStatus], 500>;

/** What a wrapped handler tells the API document about itself. */
export type RouteMeta = Pick<
  Options<Schema, Schema, Schema>,
  | "auth"
  | "query"
  | "body"
  | "params"
  | "cap"
  | "raw"
  | "app"
  | "summary"
  | "stream"
  | "response"
  | "errors"
  | "upload"
  | "parts"
  | "redirects"
>;
export const ROUTE_META = Symbol.for("builder.routeMeta");

export type Ctx<A extends AuthMode, Q, B, P> = {
  req: NextRequest;
  session: A extends "public" | "appToken" ? Session | null : Session;
  query: Out<Q>;
  body: Out<B>;
  params: Out<P>;
  /** The app of the path, when the route asked for it (`app: "edit"`). */
  app: App;
  /**
   * The plan of that app's owner, which its limits come from (an admin editing someone's app
   * works under the owner's): read with the app, in the same statement. Services take it as an
   * argument; none looks it up again.
   */
  owner: OwnerPlan;
  /** The body's bytes, when the route asked for them (`raw: true`). */
  raw: Uint8Array;
  /** An `appToken` route's bearer token, null without one. */
  bearer: string | null;
  ip: string;
  requestId: string;
};

/** Methods that change nothing: a cookie from another site may make them. */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Wraps a route handler: session, authorization, zod validation, error mapping. */
export function route<
  A extends AuthMode,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(opts: Options<Q, B, P> & { auth: A }, handler: (ctx: Ctx<A, Q, B, P>) => Promise<unknown>) {
  const wrapped = async (
    req: NextRequest,
    context: { params: Promise<Record<string, string | string[]>> },
  ): Promise<Response> => {
    const requestId = crypto.randomUUID();
    try {
      const cap = BODY_CAPS[opts.cap ?? "json"];
      const tooLarge = BODY_CAP_MESSAGES[opts.cap ?? "json"];
      // A body over the cap is refused before anything else, whether or not the route reads one.
      assertDeclaredLength(req, cap, tooLarge);
      const session = await authorize(req, opts.auth);
      const query = opts.query ? opts.query.parse(Object.fromEntries(req.nextUrl.searchParams)) : undefined;
      const params = opts.params ? opts.params.parse(await context.params) : undefined;
      // The app is named by the path, or by the query for routes that keep it there
      // (/api/context/items?appId=...).
      const edited: Partial<EditedApp> = opts.app
        ? await loadEditableApp(
            session,
            (params as { appId?: string } | undefined)?.appId ??
              (query as { appId?: string } | undefined)?.appId,
            opts.appNotFound,
          )
        : {};
      const raw = opts.body || opts.raw ? await readBodyCapped(req, cap, tooLarge) : new Uint8Array();
      const body = opts.body ? opts.body.parse(parseJson(raw)) : undefined;
      const result = await handler({
        req,
        session: session as Ctx<A, Q, B, P>["session"],
        query: query as Out<Q>,
        body: body as Out<B>,
        params: params as Out<P>,
        app: edited.app as App,
        owner: edited.owner as OwnerPlan,
        raw,
        bearer: opts.auth === "appToken" ? bearerOf(req.headers) : null,
        ip: clientIp(req.headers),
        requestId,
      });
      if (result instanceof Response) return withCors(withHeaders(result, requestId), req, opts.auth);
      const answer = result ?? { ok: true };
      if (opts.response && CHECK_ANSWERS) assertAnswer(opts.response, answer, req);
      return withCors(Response.json(answer, { headers: answerHeaders(requestId) }), req, opts.auth);
    } catch (err) {
      return withCors(errorResponse(err, requestId, req), req, opts.auth);
    }
  };

  return Object.assign(wrapped, { [ROUTE_META]: opts as RouteMeta });
}

// Outside production, an answer that its declared schema refuses is a bug of ours: it fails the
// request (500) and is logged with the schema's complaint, so tests find the drift.
const CHECK_ANSWERS = process.env.NODE_ENV !== "production";

function assertAnswer(schema: Schema, answer: unknown, req: NextRequest): void {
  // The schema describes the JSON the client gets: dates are strings, undefined fields are gone.
  const wire = JSON.parse(JSON.stringify(answer));
  const checked = schema.safeParse(wire);
  if (checked.success) return;
  throw new Error(
    `${req.method} ${req.nextUrl.pathname}: the answer does not match the route's response schema: ${JSON.stringify(checked.error.issues.slice(0, 5))}`,
  );
}

/** An app-token route's answers carry the CORS headers of the app's frame. */
function withCors(res: Response, req: NextRequest, mode: AuthMode): Response {
  if (mode !== "appToken") return res;
  for (const [name, value] of Object.entries(runtimeCorsHeaders(req))) res.headers.set(name, value);
  return res;
}

/** The token of `Authorization: Bearer`, null without one. */
function bearerOf(headers: Headers): string | null {
  const authz = headers.get("authorization");
  return authz?.startsWith("Bearer ") ? authz.slice(7).trim() || null : null;
}

async function authorize(req: NextRequest, mode: AuthMode): Promise<Session | null> {
  // A space app's code is never the user's cookie: its routes read their bearer token themselves.
  if (mode === "appToken") return null;
  const found = readSessionToken(req.headers, (name) => req.cookies.get(name)?.value);
  const session = found ? await loadSession(found.token, found.via) : null;
  if (session && session.via === "cookie" && !SAFE_METHODS.has(req.method)) assertSameSite(req);
  if (mode === "public") return session;
  if (!session) throw new AppError("UNAUTHENTICATED", "unauthenticated");
  if (session.disabled) throw new AppError("FORBIDDEN", "userDisabled");
  if (mode === "user") return session;
  if (session.tenantId !== null) throw new AppError("FORBIDDEN", "forbidden");
  // As pages send them to /auth/verifyEmail, builder APIs refuse an unverified address.
  if (!session.emailVerified) throw new AppError("FORBIDDEN", "emailNotVerified", "auth/email-not-verified");
  if (mode === "admin" && !session.account?.isAdmin) throw new AppError("FORBIDDEN", "forbidden");
  return session;
}

// A cookie rides along on cross-site requests; a mutation it authenticates must come from us.
function assertSameSite(req: NextRequest): void {
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none")
    throw new AppError("FORBIDDEN", "crossSite", "CROSS_SITE");
  const origin = req.headers.get("origin");
  if (origin && origin !== appOrigin() && origin !== req.nextUrl.origin) {
    throw new AppError("FORBIDDEN", "crossSite", "CROSS_SITE");
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function parseJson(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return {};
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw new AppError("BAD_REQUEST", "invalidInput", "INVALID_JSON");
  }
}

export function errorResponse(err: unknown, requestId: string, req?: NextRequest): Response {
  let status = 500;
  let body: ErrorBody;
  if (err instanceof AppError) {
    status = err.status;
    const field = err.field === undefined ? {} : { field: err.field };
    body = { ...err.extra, error: { code: err.code, message: err.message, ...field } };
  } else if (err instanceof ZodError) {
    status = 400;
    body = {
      error: {
        code: "INVALID_INPUT",
        message: messages.invalidInput,
        issues: err.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      },
    };
  } else {
    logError("unhandled error in route", {
      requestId,
      method: req?.method,
      path: req?.nextUrl.pathname,
      err,
    });
    body = { error: { code: "INTERNAL", message: messages.internal } };
  }
  return Response.json(body, { status, headers: answerHeaders(requestId) });
}

const answerHeaders = (requestId: string) => ({ ...apiSecurityHeaders(), "x-request-id": requestId });

/** Our headers on an answer made elsewhere (a handler's own Response, Auth.js's). */
export function withHeaders(res: Response, requestId: string = crypto.randomUUID()): Response {
  const ours = Object.entries(answerHeaders(requestId));
  try {
    // Added in place: a copy would turn its body into a stream (a space app's function answers
    // through here on every call).
    for (const [name, value] of ours) if (!res.headers.has(name)) res.headers.set(name, value);
    return res;
  } catch {
    // A redirect's headers are immutable (the first set throws): the answer is copied with ours.
    const headers = new Headers(res.headers);
    for (const [name, value] of ours) if (!headers.has(name)) headers.set(name, value);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}
