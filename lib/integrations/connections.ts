import "server-only";
import {
  findConnection,
  updateConnectionTokens,
  upsertConnection,
  withLockedConnection,
} from "@/db/queries/integrations";
import type { IntegrationConnection } from "@/db/schema";
import type { IntegrationProvider } from "./config";
import { driveRefresh } from "./google-drive";
import { ProviderHttpError } from "./http";
import { notionRefresh } from "./notion";
import { openToken, sealToken } from "./token-crypto";
import type { OAuthTokens } from "./types";

/** A token is renewed this long before it expires, so a call never starts with a dying one. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * The account's connection cannot be used, and only connecting again cures it:
 * - missing: never connected, or disconnected (or sealed under another AUTH_SECRET)
 * - revoked: the provider refuses the token (access removed in the provider's settings)
 * - refresh-failed: the token expired and the provider refused to renew it
 */
export class ConnectionLostError extends Error {
  constructor(
    readonly provider: IntegrationProvider,
    readonly reason: "missing" | "revoked" | "refresh-failed",
  ) {
    super(`${provider} connection ${reason}`);
    this.name = "ConnectionLostError";
  }
}

type Usable = { row: IntegrationConnection; accessToken: string };

export async function saveConnection(accountId: string, provider: IntegrationProvider, tokens: OAuthTokens) {
  await upsertConnection({
    accountId,
    provider,
    accessToken: sealToken(tokens.accessToken),
    refreshToken: tokens.refreshToken ? sealToken(tokens.refreshToken) : null,
    expiresAt: tokens.expiresAt,
    externalAccountName: tokens.accountName,
  });
}

const expiring = (row: IntegrationConnection) =>
  row.expiresAt !== null && row.expiresAt.getTime() - REFRESH_MARGIN_MS <= Date.now();

function opened(provider: IntegrationProvider, row: IntegrationConnection | undefined): Usable {
  const accessToken = row ? openToken(row.accessToken) : null;
  if (!row || !accessToken) throw new ConnectionLostError(provider, "missing");
  return { row, accessToken };
}

/** The connection with an access token good for the next call (renewed first when expiring). */
async function usableConnection(accountId: string, provider: IntegrationProvider): Promise<Usable> {
  const found = opened(provider, await findConnection(accountId, provider));
  return expiring(found.row) ? refresh(provider, found.row) : found;
}

/**
 * Renews the access token with the refresh token, under the connection's lock: whoever comes
 * second finds it renewed already and uses that one.
 */
async function refresh(provider: IntegrationProvider, stale: IntegrationConnection): Promise<Usable> {
  return withLockedConnection(stale.id, async (row, tx) => {
    if (row && row.accessToken !== stale.accessToken && !expiring(row)) return opened(provider, row);
    const refreshToken = row?.refreshToken ? openToken(row.refreshToken) : null;
    if (!row || !refreshToken) throw new ConnectionLostError(provider, row ? "refresh-failed" : "missing");
    let tokens: OAuthTokens;
    try {
      tokens = provider === "notion" ? await notionRefresh(refreshToken) : await driveRefresh(refreshToken);
    } catch (err) {
      // 400 invalid_grant (revoked or expired grant), 401 invalid_client: no retry cures these.
      if (err instanceof ProviderHttpError && (err.status === 400 || err.status === 401))
        throw new ConnectionLostError(provider, "refresh-failed");
      throw err;
    }
    await updateConnectionTokens(
      row.id,
      {
        accessToken: sealToken(tokens.accessToken),
        refreshToken: tokens.refreshToken ? sealToken(tokens.refreshToken) : null,
        expiresAt: tokens.expiresAt,
      },
      tx,
    );
    return { row: { ...row, expiresAt: tokens.expiresAt }, accessToken: tokens.accessToken };
  });
}

/**
 * Runs `call` with the account's access token. A token the provider refuses (401) although it
 * had not expired by our clock is renewed once and the call tried again; refused again, or with
 * nothing to renew it with, the connection is lost (ConnectionLostError).
 */
export async function withAccessToken<T>(
  accountId: string,
  provider: IntegrationProvider,
  call: (accessToken: string) => Promise<T>,
): Promise<T> {
  const first = await usableConnection(accountId, provider);
  try {
    return await call(first.accessToken);
  } catch (err) {
    if (!(err instanceof ProviderHttpError && err.status === 401)) throw err;
    if (!first.row.refreshToken) throw new ConnectionLostError(provider, "revoked");
  }
  let renewed: Usable;
  try {
    renewed = await refresh(provider, { ...first.row, expiresAt: new Date(0) });
  } catch (err) {
    // Refused, then refused a renewal: the grant was revoked, not merely expired.
    if (err instanceof ConnectionLostError && err.reason === "refresh-failed")
      throw new ConnectionLostError(provider, "revoked");
    throw err;
  }
  try {
    return await call(renewed.accessToken);
  } catch (err) {
    if (err instanceof ProviderHttpError && err.status === 401)
      throw new ConnectionLostError(provider, "revoked");
    throw err;
  }
}
