import "server-only";
import { createHash, createHmac, hkdfSync } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { AppError } from "@/lib/api/errors";
import { CONNECT_STATE_TTL_S } from "@/lib/constants";
import { env } from "@/lib/env";

// The short-lived token of the connect flow (GET /api/integrations/fetchCarbonTokens). It names
// the builder's account and the app the dialog is open on, and travels as the OAuth `state`: the
// callback accepts a code only with a state we signed, unexpired, for the account signed in now,
// so nobody can attach their own Notion or Drive to someone else's account.

const AUDIENCE = "builder:connector-connect";
const ALG = "HS256";

export type ConnectState = { accountId: string; appId: string };

const keys = new Map<string, Uint8Array>();
function key(): Uint8Array {
  const secret = env().AUTH_SECRET;
  let found = keys.get(secret);
  if (!found) {
    found = new Uint8Array(hkdfSync("sha256", secret, "connector-state", "builder connector state v1", 32));
    keys.clear();
    keys.set(secret, found);
  }
  return found;
}

export async function signConnectState(state: ConnectState): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + CONNECT_STATE_TTL_S) * 1000);
  const token = await new SignJWT({ accountId: state.accountId, appId: state.appId })
    .setProtectedHeader({ alg: ALG })
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(key());
  return { token, expiresAt };
}

/** The state's claims; a forged, altered or expired one is refused with a readable message. */
export async function verifyConnectState(token: string | undefined): Promise<ConnectState> {
  if (!token) throw new AppError("BAD_REQUEST", "connectorStateInvalid", "connector/state-invalid");
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: [ALG], audience: AUDIENCE });
    if (typeof payload.accountId !== "string" || typeof payload.appId !== "string") throw new Error("claims");
    return { accountId: payload.accountId, appId: payload.appId };
  } catch (err) {
    const expired = err instanceof joseErrors.JWTExpired;
    throw new AppError(
      "BAD_REQUEST",
      expired ? "connectorStateExpired" : "connectorStateInvalid",
      expired ? "connector/state-expired" : "connector/state-invalid",
    );
  }
}

/**
 * The PKCE verifier of a connect flow, derived from its state: the callback computes it again
 * from the state it receives, so nothing is stored between the two requests.
 */
export function pkceVerifier(state: string): string {
  return createHmac("sha256", key()).update(`pkce:${state}`).digest("base64url");
}

export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}
