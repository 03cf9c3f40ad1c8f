import "server-only";
import { listSecretsSealedUnderOtherKeys, resealAppSecret } from "@/db/queries/app-secrets";
import { type Keyring, openSecret, sealSecret, serverKeyring } from "./crypto";

const PAGE = 500;

/**
 * Reseals under the current key every secret sealed under another one (after SECRETS_KEY
 * changed, with the old key in SECRETS_KEY_PREVIOUS). A value no configured key opens is left
 * as it is and counted: its app's builder enters it again.
 */
export async function resealSecrets(
  ring: Keyring = serverKeyring(),
): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  const unreadable = new Set<string>();
  for (;;) {
    const rows = (await listSecretsSealedUnderOtherKeys(ring.current.id, PAGE + unreadable.size)).filter(
      (r) => !unreadable.has(`${r.appId}\0${r.key}`),
    );
    if (rows.length === 0) return { resealed, unreadable: unreadable.size };
    for (const row of rows) {
      const value = openSecret(row.appId, row.key, row, ring);
      if (value === null) {
        unreadable.add(`${row.appId}\0${row.key}`);
        continue;
      }
      await resealAppSecret(row, sealSecret(row.appId, row.key, value, ring));
      resealed++;
    }
  }
}
