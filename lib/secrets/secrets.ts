import "server-only";
import {
  deleteAppSecret,
  listAppSecrets,
  readSealedSecrets,
  type SecretListing,
  saveAppSecrets,
} from "@/db/queries/app-secrets";
import type { App } from "@/db/schema";
import { SECRET_MASK, SECRETS_PER_APP_MAX } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { assertSpaceApp } from "@/lib/space/commit";
import { openSecret, type Sealed, sealSecret } from "./crypto";
import type { SaveSecretsBody, SecretList, SecretView } from "./schemas";

// A space app's secrets: its builder lists (keys and instructions, values masked), saves and
// deletes them; the server alone reads the values (its functions). A value is sealed before it
// reaches the database and never appears in an answer, a log line or an error.

const view = (s: SecretListing): SecretView => ({
  key: s.key,
  value: SECRET_MASK,
  instructions: s.instructions,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

export async function listSecrets(app: App): Promise<SecretList> {
  assertSpaceApp(app);
  return { secrets: (await listAppSecrets(app.id)).map(view) };
}

/** Adds or replaces the secrets sent; answers the app's secrets after the save. */
export async function saveSecrets(app: App, body: SaveSecretsBody): Promise<SecretList> {
  assertSpaceApp(app);
  const seen = new Set<string>();
  for (const s of body.secrets) {
    if (seen.has(s.key)) {
      throw new AppError(
        "BAD_REQUEST",
        { key: "secretKeyDuplicate", vars: { key: s.key } },
        "SECRET_KEY_DUPLICATE",
      );
    }
    seen.add(s.key);
  }
  const sealed = body.secrets.map((s) => ({
    key: s.key,
    ...sealSecret(app.id, s.key, s.value),
    instructions: s.instructions === undefined ? undefined : s.instructions?.trim() || null,
  }));
  const saved = await saveAppSecrets(app.id, sealed, SECRETS_PER_APP_MAX);
  if (saved === "too_many") {
    throw new AppError(
      "BAD_REQUEST",
      { key: "secretsTooMany", vars: { max: SECRETS_PER_APP_MAX } },
      "SECRETS_TOO_MANY",
    );
  }
  return listSecrets(app);
}

export async function deleteSecret(app: App, key: string): Promise<{ deleted: true }> {
  assertSpaceApp(app);
  if (!(await deleteAppSecret(app.id, key)))
    throw new AppError("NOT_FOUND", "secretNotFound", "SECRET_NOT_FOUND");
  return { deleted: true };
}

/**
 * The app's secrets in clear, for its functions' environment: only this app's, and only those
 * that open (a value sealed under a key no longer configured is left out).
 */
export async function readSecretValues(appId: string): Promise<Record<string, string>> {
  return openSecrets(appId, await readSealedSecrets(appId));
}

/** Sealed rows of one app's secrets, opened (lib/functions/public-call.ts reads them itself). */
export function openSecrets(
  appId: string,
  rows: readonly (Sealed & { key: string })[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of rows) {
    const value = openSecret(appId, row.key, row);
    if (value !== null) out[row.key] = value;
  }
  return out;
}
