import "./load-env";
import { closeDb } from "../db/client";
import { resealSecrets } from "../lib/secrets/rotate";
import { ensureDatabaseUrl } from "./prepare-env";

// npm run secrets:rotate - after SECRETS_KEY changed (the old key moved to SECRETS_KEY_PREVIOUS),
// reseals every space app secret under the new key; then the old key can be dropped. Works on
// DATABASE_URL, else on the embedded PostgreSQL, like every command.
async function main(): Promise<number> {
  const local = await ensureDatabaseUrl();
  try {
    const { resealed, unreadable } = await resealSecrets();
    console.log(`Resealed ${resealed} secret(s) under the current key.`);
    if (unreadable > 0) {
      console.error(
        `${unreadable} secret(s) open under no configured key (SECRETS_KEY, SECRETS_KEY_PREVIOUS, the key from AUTH_SECRET): their builders must enter them again.`,
      );
      return 1;
    }
    return 0;
  } finally {
    await closeDb();
    await local?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
