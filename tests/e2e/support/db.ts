import crypto from "node:crypto";
import { hash } from "@node-rs/argon2";
import pg from "pg";

// Direct database access for test setup that no page offers (a published app, a disabled
// user). scripts/e2e.ts passes the e2e database's DATABASE_URL through the environment.
// Plain SQL on purpose: the app's own modules are server-only and are not imported here.

let pool: pg.Pool | undefined;

function db(): pg.Pool {
  if (!pool) {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString)
      throw new Error("DATABASE_URL is not set: run the end-to-end tests with `npm run test:e2e`");
    pool = new pg.Pool({ connectionString, max: 2, allowExitOnIdle: true });
  }
  return pool;
}

export async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await db().query<T>(text, params)).rows;
}

/** A strong password every seeded user gets. */
export const PASSWORD = "violet harbor lantern 42";

/** An address nobody else uses in this run. */
export const uniqueEmail = (prefix = "user") =>
  `e2e-${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

// argon2id, as lib/auth/password.ts stores it (verification reads the parameters from the hash).
const ARGON2ID = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const hashes = new Map<string, Promise<string>>();
function hashPassword(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hash(password, ARGON2ID);
    hashes.set(password, hashed);
  }
  return hashed;
}

export type SeededUser = { id: string; email: string; password: string; accountId?: string };

/** A builder who can log in right away: verified, with an account, unless told otherwise. */
export async function createBuilder(
  opts: { email?: string; password?: string; verified?: boolean; withAccount?: boolean } = {},
): Promise<SeededUser> {
  const email = (opts.email ?? uniqueEmail("builder")).toLowerCase();
  const password = opts.password ?? PASSWORD;
  const [user] = await sql<{ id: string }>(
    `INSERT INTO users (tenant_id, email, password_hash, email_verified_at)
     VALUES (NULL, $1, $2, $3) RETURNING id`,
    [email, await hashPassword(password), opts.verified === false ? null : new Date()],
  );
  let accountId: string | undefined;
  if (opts.withAccount !== false) {
    const [account] = await sql<{ account_id: string }>(
      `INSERT INTO accounts (user_id, account_type) VALUES ($1, 'builder') RETURNING account_id`,
      [user!.id],
    );
    accountId = account!.account_id;
  }
  return { id: user!.id, email, password, accountId };
}

/** A published (active) app owned by a fresh builder. */
export async function createPublishedApp(header = "E2E App"): Promise<{ appId: string; header: string }> {
  const owner = await createBuilder({ email: uniqueEmail("owner") });
  const [app] = await sql<{ id: string }>(
    `INSERT INTO apps (owner_account_id, status, header) VALUES ($1, 'active', $2) RETURNING id`,
    [owner.accountId, header],
  );
  return { appId: app!.id, header };
}

/** An end user of an app (tenant = the app), verified, with a password. */
export async function createEndUser(appId: string, opts: { email?: string } = {}): Promise<SeededUser> {
  const email = (opts.email ?? uniqueEmail("enduser")).toLowerCase();
  const [user] = await sql<{ id: string }>(
    `INSERT INTO users (tenant_id, email, password_hash, email_verified_at)
     VALUES ($1, $2, $3, now()) RETURNING id`,
    [appId, email, await hashPassword(PASSWORD)],
  );
  return { id: user!.id, email, password: PASSWORD };
}

/** Marks a user disabled (builders when tenantId is null). */
export async function disableUser(email: string, tenantId: string | null = null): Promise<void> {
  await sql("UPDATE users SET disabled_at = now() WHERE email = $1 AND tenant_id IS NOT DISTINCT FROM $2", [
    email.toLowerCase(),
    tenantId,
  ]);
}

export async function findUser(email: string, tenantId: string | null = null) {
  const [row] = await sql<{
    id: string;
    email: string;
    email_verified_at: Date | null;
    disabled_at: Date | null;
  }>(
    `SELECT id, email, email_verified_at, disabled_at FROM users
     WHERE email = $1 AND tenant_id IS NOT DISTINCT FROM $2`,
    [email.toLowerCase(), tenantId],
  );
  return row;
}
