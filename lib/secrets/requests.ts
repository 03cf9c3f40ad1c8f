import {
  SECRET_INSTRUCTIONS_MAX,
  SECRET_KEY_MAX,
  SECRET_KEY_PATTERN,
  SECRET_VALUE_MAX,
  SECRETS_PER_APP_MAX,
} from "@/lib/constants";
import type { MessageKey } from "@/lib/messages";

// Rules shared by the secrets dialogs and the chat's request_secrets card (no React, no server):
// what a request asks for, which of it the app lacks, and whether rows typed in a dialog can be
// sent.

/** "Secret requirement: secretName, description". */
export type SecretRequirement = { secretName: string; description: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The secrets a request_secrets action asks for: its body `{"secrets":[{secretName, description}]}`
 * (a bare list is taken too). Entries without a usable name are skipped, names kept once; a name
 * the routes would refuse as a key is skipped as well, since it could never be set.
 */
export function requestedSecrets(data: unknown): SecretRequirement[] {
  const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.secrets) ? data.secrets : [];
  const out: SecretRequirement[] = [];
  const seen = new Set<string>();
  for (const entry of list.slice(0, SECRETS_PER_APP_MAX)) {
    if (!isRecord(entry)) continue;
    const name = typeof entry.secretName === "string" ? entry.secretName.trim() : "";
    if (!name || name.length > SECRET_KEY_MAX || !SECRET_KEY_PATTERN.test(name) || seen.has(name)) continue;
    seen.add(name);
    const description = typeof entry.description === "string" ? entry.description.trim() : "";
    out.push({ secretName: name, description: description.slice(0, SECRET_INSTRUCTIONS_MAX) });
  }
  return out;
}

/**
 * Names read by code, each with the description the chat gave when it asked for it (the latest
 * request wins; "" when the chat never asked).
 */
export function describeSecrets(
  names: readonly string[],
  requestBodies: readonly unknown[],
): SecretRequirement[] {
  const descriptions = new Map<string, string>();
  for (const body of requestBodies) {
    for (const r of requestedSecrets(body)) if (r.description) descriptions.set(r.secretName, r.description);
  }
  return names.map((secretName) => ({ secretName, description: descriptions.get(secretName) ?? "" }));
}

/** The required secrets that are not among the stored keys, with their name and description. */
export function missingSecrets(
  required: readonly SecretRequirement[],
  storedKeys: ReadonlySet<string>,
): SecretRequirement[] {
  return required.filter((r) => !storedKeys.has(r.secretName));
}

/** A row of the Secrets dialog as typed. */
export type SecretRow = { key: string; value: string; instructions: string };

/**
 * Why the dialog's new rows cannot be saved, or null: every row needs both key and value ('Please
 * provide both key and value for all secrets or remove empty ones'), a key of the right form, not
 * one already saved (existing keys are read-only) or typed twice, and a value within its cap.
 */
export function checkSecretRows(
  rows: readonly SecretRow[],
  savedKeys: ReadonlySet<string>,
): MessageKey | null {
  const typed = new Set<string>();
  for (const row of rows) {
    if (!row.key.trim() || !row.value) return "secretsKeyAndValueRequired";
  }
  for (const row of rows) {
    const key = row.key.trim();
    if (key.length > SECRET_KEY_MAX || !SECRET_KEY_PATTERN.test(key)) return "secretKeyInvalid";
    if (savedKeys.has(key) || typed.has(key)) return "secretKeyDuplicate";
    typed.add(key);
    if (row.value.length > SECRET_VALUE_MAX) return "secretValueTooLong";
    if (row.instructions.length > SECRET_INSTRUCTIONS_MAX) return "secretInstructionsTooLong";
  }
  return null;
}

/** The key a refused row names, for the duplicate message. */
export function duplicateKey(rows: readonly SecretRow[], savedKeys: ReadonlySet<string>): string {
  const typed = new Set<string>();
  for (const row of rows) {
    const key = row.key.trim();
    if (savedKeys.has(key) || typed.has(key)) return key;
    typed.add(key);
  }
  return "";
}
