import "server-only";
import { findAppById } from "@/db/queries/apps";
import { deleteConnection, findConnection, listConnectedProviders } from "@/db/queries/integrations";
import type { App } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { appOrigin, env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { ownerPlan } from "@/lib/plans/owner-plan";
import { connectorPage } from "./callback-page";
import {
  connectorConfig,
  INTEGRATION_PROVIDERS,
  type IntegrationProvider,
  PROVIDER_NAMES,
  PROVIDER_TIMEOUT_MS,
} from "./config";
import { ConnectionLostError, saveConnection, withAccessToken } from "./connections";
import { driveAuthorizeUrl, driveExchangeCode, driveListFiles } from "./google-drive";
import { notionAuthorizeUrl, notionExchangeCode, notionListFiles } from "./notion";
import type { ConnectorFilesAnswer, ConnectorTokensAnswer } from "./schemas";
import { signConnectState, verifyConnectState } from "./state";
import { openToken } from "./token-crypto";

// The connect flow of the Data Sources dialog: a signed token (GET fetchCarbonTokens) opens the
// provider's consent page (authorize), which sends the builder back with a code (callback); the
// tokens are stored for the builder's account, encrypted. Connections belong to accounts, and an
// app's files are always read through its owner's connections (lib/integrations/fetch-source.ts).

const named = (provider: IntegrationProvider) => ({ provider: PROVIDER_NAMES[provider] });
const editorUrl = (appId: string) => `${appOrigin()}/build/app/${appId}`;

/** GET /api/integrations/fetchCarbonTokens?appId=: what the dialog needs to offer the connectors. */
export async function connectorTokens(session: Session, app: App): Promise<ConnectorTokensAnswer> {
  const { caps } = await ownerPlan(app.ownerAccountId);
  // `app: "edit"` let the caller through, so the caller has an account.
  const { token, expiresAt } = await signConnectState({
    accountId: session.account!.accountId,
    appId: app.id,
  });
  const connected = new Map(
    (await listConnectedProviders(app.ownerAccountId)).map((c) => [c.provider, c.externalAccountName]),
  );
  const connectors = Object.fromEntries(
    INTEGRATION_PROVIDERS.map((p) => {
      const { configured, missingEnv } = connectorConfig(p);
      return [
        p,
        { configured, missingEnv, connected: connected.has(p), accountName: connected.get(p) ?? null },
      ];
    }),
  ) as ConnectorTokensAnswer["connectors"];
  return {
    accessToken: token,
    expiresAt: expiresAt.toISOString(),
    maxFiles: caps.maxConnectorFiles,
    webScraper: { maxDepth: caps.webScraperMaxDepth, maxPages: caps.webScraperMaxPages },
    connectors,
  };
}

/**
 * The builder's account, checked as the route wrapper checks a builder route: the connect pages
 * answer with a page, not JSON, so they take the session themselves.
 */
function builderAccount(session: Session | null) {
  if (!session) throw new AppError("UNAUTHENTICATED", "unauthenticated");
  if (session.disabled) throw new AppError("FORBIDDEN", "userDisabled");
  if (session.tenantId !== null || !session.account) throw new AppError("FORBIDDEN", "forbidden");
  if (!session.emailVerified) throw new AppError("FORBIDDEN", "emailNotVerified", "auth/email-not-verified");
  return session.account;
}

/**
 * The state checked against the caller: signed by us, unexpired, issued to the account signed in
 * now, for an app that account owns (an admin may browse a customer's files through the owner's
 * connection, but never attach an account of their own to the customer's).
 */
async function checkedState(
  session: Session | null,
  provider: IntegrationProvider,
  token: string | undefined,
) {
  const account = builderAccount(session);
  const state = await verifyConnectState(token);
  if (state.accountId !== account.accountId)
    throw new AppError("FORBIDDEN", "connectorWrongAccount", "connector/wrong-account");
  const app = await findAppById(state.appId);
  if (!app) throw new AppError("NOT_FOUND", "appNotFound");
  if (app.ownerAccountId !== account.accountId)
    throw new AppError(
      "FORBIDDEN",
      { key: "connectorOwnerOnly", vars: named(provider) },
      "connector/owner-only",
    );
  return state;
}

function assertConfigured(provider: IntegrationProvider) {
  const { configured, missingEnv } = connectorConfig(provider);
  if (!configured) {
    throw new AppError("NOT_CONFIGURED", {
      key: "connectorNotConfigured",
      vars: { ...named(provider), variables: missingEnv.join(", ") },
    });
  }
}

/**
 * Whether the caller is a browser (the popup) rather than a program: a program that asks for
 * JSON gets the usual JSON errors; a browser gets a page.
 */
export function wantsPage(accept: string | null): boolean {
  return !accept || accept.includes("text/html") || !accept.includes("application/json");
}

/** A refusal on the connect pages is a page saying why, with the status it would have had. */
async function asPage(
  provider: IntegrationProvider,
  page: boolean,
  backTo: () => string,
  run: () => Promise<Response>,
): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError) || !page) throw err;
    return connectorPage({ provider, status: err.status, error: err.message, backTo: backTo() });
  }
}

/** GET /api/integrations/{provider}/authorize?token=: on to the provider's consent page. */
export async function authorizeConnector(
  session: Session | null,
  provider: IntegrationProvider,
  token: string | undefined,
  page = true,
): Promise<Response> {
  let backTo = `${appOrigin()}/home`;
  return asPage(
    provider,
    page,
    () => backTo,
    async () => {
      const state = await checkedState(session, provider, token);
      backTo = editorUrl(state.appId);
      assertConfigured(provider);
      const url = provider === "notion" ? notionAuthorizeUrl(token!) : driveAuthorizeUrl(token!);
      return new Response(null, { status: 302, headers: { location: url } });
    },
  );
}

/**
 * GET /api/integrations/{provider}/callback?code=&state=: the code for tokens, stored for the
 * account; a page that tells the dialog and closes itself.
 */
export async function connectorCallback(
  session: Session | null,
  provider: IntegrationProvider,
  query: { code?: string; state?: string; error?: string },
  page = true,
): Promise<Response> {
  let backTo = `${appOrigin()}/home`;
  return asPage(
    provider,
    page,
    () => backTo,
    async () => {
      const state = await checkedState(session, provider, query.state);
      backTo = editorUrl(state.appId);
      if (query.error || !query.code)
        throw new AppError(
          "BAD_REQUEST",
          { key: "connectorDenied", vars: named(provider) },
          "connector/denied",
        );
      assertConfigured(provider);
      let tokens: Awaited<ReturnType<typeof notionExchangeCode>>;
      try {
        tokens =
          provider === "notion"
            ? await notionExchangeCode(query.code)
            : await driveExchangeCode(query.code, query.state!);
      } catch (err) {
        logError("connector code exchange failed", { provider, err });
        throw new AppError("BAD_GATEWAY", { key: "connectorExchangeFailed", vars: named(provider) });
      }
      await saveConnection(state.accountId, provider, tokens);
      return connectorPage({ provider, status: 200, backTo });
    },
  );
}

/** GET /api/integrations/{provider}/files?appId=&q=: the picker's list, through the owner's connection. */
export async function listConnectorFiles(
  app: App,
  provider: IntegrationProvider,
  query: string,
): Promise<ConnectorFilesAnswer> {
  try {
    const files = await withAccessToken(app.ownerAccountId, provider, (token) =>
      provider === "notion" ? notionListFiles(token, query) : driveListFiles(token, query),
    );
    return { files };
  } catch (err) {
    if (err instanceof ConnectionLostError) {
      if (err.reason === "missing")
        throw new AppError(
          "BAD_REQUEST",
          { key: "connectorNotConnected", vars: named(provider) },
          "connector/not-connected",
        );
      throw new AppError(
        "BAD_REQUEST",
        { key: "connectorReconnect", vars: named(provider) },
        "connector/reconnect",
      );
    }
    if (err instanceof AppError) throw err;
    logError("connector file list failed", { provider, err });
    throw new AppError("BAD_GATEWAY", { key: "connectorListFailed", vars: named(provider) });
  }
}

/**
 * DELETE /api/integrations/{provider}: forgets the caller's connection. Google is asked to revoke
 * the grant too (best effort: the tokens are gone here whatever it answers); Notion's API has no
 * such call, the builder removes the integration in Notion's settings.
 */
export async function disconnectConnector(session: Session, provider: IntegrationProvider) {
  const accountId = session.account?.accountId;
  if (!accountId) return { ok: true };
  const row = await findConnection(accountId, provider);
  if (!row) return { ok: true };
  await deleteConnection(accountId, provider);
  if (provider === "google-drive") {
    const token = (row.refreshToken && openToken(row.refreshToken)) || openToken(row.accessToken);
    if (token) {
      await fetch(new URL("/revoke", env().GOOGLE_TOKEN_URL), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }),
        signal: AbortSignal.timeout(Math.min(PROVIDER_TIMEOUT_MS, 5000)),
      }).catch((err) => logError("google drive revoke failed", { err }));
    }
  }
  return { ok: true };
}
