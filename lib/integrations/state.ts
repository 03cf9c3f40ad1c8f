import "server-only";
import { createHash, createHmac } from "node:crypto";
import { CONNECT_STATE_TTL_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { signedTokens } from "@/lib/security/signed-token";

// The short-lived token of the connect flow (GET /api/integrations/fetchCarbonTokens). It names
// the builder's account and the app the dialog is open on, and travels as the OAuth `state`: the
// callback accepts a code only with a state we signed, unexpired, for the account signed in now,
// so nobody can attach their own Notion or Drive to someone else's account.

const tokens = signedTokens({
  audience: "builder:connector-connect",
  salt: "connector-state",
  info: "builder connector state v1",
});

export type ConnectState = { accountId: string; appId: string };

export async function signConnectState(state: ConnectState): Promise<{ token: string; expiresAt: Date }> {
  return tokens.sign({ accountId: state.accountId, appId: state.appId }, CONNECT_STATE_TTL_S);
}

/** The state's claims; a forged, altered or expired one is refused with a readable message. */
export async function verifyConnectState(token: string | undefined): Promise<ConnectState> {
  if (!token) throw new AppError("BAD_REQUEST", "connectorStateInvalid", "connector/state-invalid");
  const verdict = await tokens.verify(token);
  if (
    verdict.ok &&
    typeof verdict.payload.accountId === "string" &&
    typeof verdict.payload.appId === "string"
  ) {
    return { accountId: verdict.payload.accountId, appId: verdict.payload.appId };
  }
  const expired = !verdict.ok && verdict.expired;
  throw new AppError(
    "BAD_REQUEST",
    expired ? "connectorStateExpired" : "connectorStateInvalid",
    expired ? "connector/state-expired" : "connector/state-invalid",
  );
}

/**
 * The PKCE verifier of a connect flow, derived from its state: the callback computes it again
 * from the state it receives, so nothing is stored between the two requests.
 */
export function pkceVerifier(state: string): string {
  return createHmac("sha256", tokens.key()).update(`pkce:${state}`).digest("base64url");
}

export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}
