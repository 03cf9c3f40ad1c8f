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
  opts: {
    email?: string;
    password?: string;
    verified?: boolean;
    withAccount?: boolean;
    /** The account's plan (default lite). */
    plan?: string;
    isAdmin?: boolean;
  } = {},
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
      `INSERT INTO accounts (user_id, account_type, plan, is_admin)
       VALUES ($1, 'builder', $2, $3) RETURNING account_id`,
      [user!.id, opts.plan ?? "lite", opts.isAdmin ?? false],
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

// ---- apps: what the editor would have saved, written directly ----

export type AppKind = "tool" | "generated" | "space";

/** A custom field as stored in an app's content (the schema's defaults for what is left out). */
export type SeedField = {
  name: string;
  label?: string;
  type?: string;
  options?: { label: string }[];
  required?: boolean;
  personal?: boolean;
  memorize?: boolean;
  /** What the model is told about the field: the builder's, never shown to visitors. */
  instructions?: string;
  filterCondition?: "none" | "include" | "exclude";
};

export type SeedApp = {
  type?: AppKind;
  status?: "active" | "draft";
  header?: string;
  /** Other keys of the app's content (description, fields, gptPrompt, examples...). */
  content?: Record<string, unknown>;
  /** The style record (app_styles); none when left out (revision 0: never saved). */
  style?: Record<string, unknown>;
  /** The settings record (app_settings); none when left out. */
  settings?: Record<string, unknown>;
};

const withFieldDefaults = (f: SeedField) => ({
  label: f.label ?? f.name,
  type: f.type ?? "text",
  required: f.required ?? false,
  personal: f.personal ?? false,
  memorize: f.memorize ?? false,
  stepId: null,
  instructions: f.instructions ?? "",
  options: (f.options ?? []).map((o) => ({ iconUrl: null, ...o })),
  filterCondition: f.filterCondition ?? "none",
  placeholder: "",
  name: f.name,
});

/** An app of this builder's account, with its content, and style and settings records when given. */
export async function createApp(
  owner: { accountId?: string },
  app: SeedApp = {},
): Promise<{ appId: string; header: string }> {
  if (!owner.accountId) throw new Error("createApp: the owner has no builder account");
  const header = app.header ?? "E2E App";
  const content: Record<string, unknown> = { appBuilderVersion: 4, ...app.content, header };
  if (Array.isArray(content.fields)) content.fields = (content.fields as SeedField[]).map(withFieldDefaults);
  const [row] = await sql<{ id: string }>(
    `INSERT INTO apps (owner_account_id, type, status, header, content)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [owner.accountId, app.type ?? "tool", app.status ?? "draft", header, JSON.stringify(content)],
  );
  const appId = row!.id;
  if (app.style) {
    await sql("INSERT INTO app_styles (app_id, style) VALUES ($1, $2)", [appId, JSON.stringify(app.style)]);
  }
  if (app.settings) {
    await sql("INSERT INTO app_settings (app_id, settings) VALUES ($1, $2)", [
      appId,
      JSON.stringify(app.settings),
    ]);
  }
  return { appId, header };
}

/** A tool of a generated app, after the others. */
export async function createTool(
  appId: string,
  tool: { title?: string; path: string; status?: "active" | "draft"; content?: Record<string, unknown> },
): Promise<{ toolId: string; path: string }> {
  const title = tool.title ?? "";
  const content: Record<string, unknown> = { ...tool.content, header: title };
  if (Array.isArray(content.fields)) content.fields = (content.fields as SeedField[]).map(withFieldDefaults);
  const [row] = await sql<{ id: string }>(
    `INSERT INTO tools (app_id, title, path, status, position, content)
     VALUES ($1, $2, $3, $4, (SELECT count(*) FROM tools WHERE app_id = $1), $5) RETURNING id`,
    [appId, title, tool.path, tool.status ?? "draft", JSON.stringify(content)],
  );
  return { toolId: row!.id, path: tool.path };
}

/** The app as stored: its row, its content, and its style and settings records (if any). */
export async function readApp(appId: string) {
  const [row] = await sql<{
    owner_account_id: string;
    status: string;
    header: string;
    revision: number;
    content: Record<string, unknown> & { fields?: { name: string; options: { label: string }[] }[] };
    style: Record<string, unknown> | null;
    settings: Record<string, unknown> | null;
  }>(
    `SELECT a.owner_account_id, a.status, a.header, a.revision, a.content,
            st.style, se.settings
     FROM apps a
     LEFT JOIN app_styles st ON st.app_id = a.id
     LEFT JOIN app_settings se ON se.app_id = a.id
     WHERE a.id = $1`,
    [appId],
  );
  return row;
}

/** The ids of the apps this account owns. */
export async function appsOwnedBy(accountId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>("SELECT id FROM apps WHERE owner_account_id = $1", [accountId]);
  return rows.map((r) => r.id);
}
