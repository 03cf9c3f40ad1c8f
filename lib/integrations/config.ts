import "server-only";
import { INTEGRATION_PROVIDERS, type IntegrationProvider } from "@/db/schema";
import { appOrigin, env } from "@/lib/env";

export { INTEGRATION_PROVIDERS, type IntegrationProvider };

/** How the dialog and the messages name each provider. */
export const PROVIDER_NAMES: Record<IntegrationProvider, string> = {
  notion: "Notion",
  "google-drive": "Google Drive",
};

/** The provider of an item `source`, or null for a source no connector serves. */
export function providerOfSource(source: string): IntegrationProvider | null {
  if (source === "notion") return "notion";
  if (source === "google drive") return "google-drive";
  return null;
}

export type ConnectorConfig = {
  configured: boolean;
  /** The variables still to set, by name, for the dialog to show. */
  missingEnv: string[];
  clientId: string;
  clientSecret: string;
};

const CREDENTIAL_VARS = {
  notion: ["NOTION_CLIENT_ID", "NOTION_CLIENT_SECRET"],
  "google-drive": ["GOOGLE_DRIVE_CLIENT_ID", "GOOGLE_DRIVE_CLIENT_SECRET"],
} as const;

/**
 * A provider's OAuth client. Google Drive has its own client (GOOGLE_DRIVE_*), apart from
 * Google sign-in's: the consent screens and scopes differ, and either may be set alone.
 */
export function connectorConfig(provider: IntegrationProvider): ConnectorConfig {
  const e = env();
  const [idVar, secretVar] = CREDENTIAL_VARS[provider];
  const clientId = e[idVar] ?? "";
  const clientSecret = e[secretVar] ?? "";
  const missingEnv = [clientId ? null : idVar, clientSecret ? null : secretVar].filter(
    (v): v is (typeof CREDENTIAL_VARS)[IntegrationProvider][number] => v !== null,
  );
  return { configured: missingEnv.length === 0, missingEnv, clientId, clientSecret };
}

/** Where the provider sends the builder back; to be registered with the provider as is. */
export function callbackUrl(provider: IntegrationProvider): string {
  return `${appOrigin()}/api/integrations/${provider}/callback`;
}

/** Every call to a provider gives up after this long (a retry of the job may do better). */
export const PROVIDER_TIMEOUT_MS = 30_000;
