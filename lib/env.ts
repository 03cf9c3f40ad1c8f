import { z } from "zod";
import { RUN_STALE_MS, RUN_TIMEOUT_MS, SSE_MAX_LIFETIME_MS } from "./constants";

// The format of SECRETS_KEY (and each key of SECRETS_KEY_PREVIOUS): 32 random bytes written as 64
// hex characters or as base64 (`openssl rand -base64 32`, or `openssl rand -hex 32`). Anything
// else fails at start (env() below), naming the variable: a key that silently meant something
// else would seal every secret under a key nobody can reproduce.

const HEX = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;

export const SECRETS_KEY_FORMAT =
  "must be 32 bytes written as 64 hex characters or base64 (openssl rand -base64 32)";

/** The key's 32 bytes, or null when the text is not such a key. */
export function parseSecretsKey(text: string): Buffer | null {
  const t = text.trim();
  if (HEX.test(t)) return Buffer.from(t, "hex");
  if (!BASE64.test(t)) return null;
  const bytes = Buffer.from(t.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes : null;
}

/** SECRETS_KEY_PREVIOUS: keys separated by commas (blank entries ignored). */
export function splitKeyList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

// Every environment variable the app reads, validated once. .env is already in process.env by
// then: the commands of package.json load it first (scripts/load-env.ts), the Next server loads
// it itself; the tests set their own environment and never read a developer's .env. A missing or malformed
// variable fails with its name, never with an undefined deep in a request.
const Env = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required (npm run dev starts an embedded PostgreSQL)"),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters"),
  APP_URL: z.url().default("http://localhost:3000"),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Builder <no-reply@localhost>"),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url().optional(),
  // Data source connectors (lib/integrations): each works once its client id and secret are set;
  // the URLs default to the providers' own and are pointed at local servers in tests.
  NOTION_CLIENT_ID: z.string().optional(),
  NOTION_CLIENT_SECRET: z.string().optional(),
  NOTION_API_URL: z.url().default("https://api.notion.com"),
  GOOGLE_DRIVE_CLIENT_ID: z.string().optional(),
  GOOGLE_DRIVE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_OAUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_DRIVE_API_URL: z.url().default("https://www.googleapis.com"),
  // Paid memberships: Gumroad's API, pointed at a local server in tests.
  GUMROAD_API_URL: z.url().default("https://api.gumroad.com"),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  // The model of builder-side calls (magic field creation) and the model list's default;
  // unset: DEFAULT_MODEL (lib/constants.ts). For endpoints that do not serve that model.
  AI_DEFAULT_MODEL: z.string().min(1).optional(),
  // A tool run's total time in ms before the server cuts it (lib/runs/run-tool.ts); default the
  // spec's 120 s, shorter in tests. At most half of RUN_STALE_MS (7.5 min), past which the prune
  // job would end a run that is still answering.
  RUN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(RUN_STALE_MS / 2)
    .default(RUN_TIMEOUT_MS),
  // How long a live status stream lasts before the browser is told to connect again (ms).
  SSE_MAX_LIFETIME_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 60 * 60 * 1000)
    .default(SSE_MAX_LIFETIME_MS),
  // Uploaded files: S3-compatible storage when S3_BUCKET is set, else the disk under
  // STORAGE_DIR (lib/storage).
  STORAGE_DIR: z.string().min(1).default(".data/uploads"),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().default("us-east-1"),
  // Bucket in the path (http://host/bucket/key), as MinIO and most S3-compatible services want.
  S3_FORCE_PATH_STYLE: z.stringbool().default(false),
  // Space app secrets (lib/secrets/crypto.ts): the key they are sealed under, 32 bytes as hex or
  // base64; unset: a key derived from AUTH_SECRET. SECRETS_KEY_PREVIOUS: earlier keys (commas),
  // which still open values sealed under them while `npm run secrets:rotate` reseals them.
  SECRETS_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || parseSecretsKey(v) !== null, `SECRETS_KEY ${SECRETS_KEY_FORMAT}`),
  SECRETS_KEY_PREVIOUS: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || splitKeyList(v).every((k) => parseSecretsKey(k) !== null),
      `every key of SECRETS_KEY_PREVIOUS ${SECRETS_KEY_FORMAT}`,
    ),
  // Space app previews (lib/space/preview): an origin of their own (another host name served by
  // this app, e.g. https://preview.example.com), so a preview never shares the builder's host; unset:
  // the builder's host, the document sandboxed into an opaque origin either way.
  PREVIEW_ORIGIN: z.url().optional(),
  // internal: the job worker runs inside each web server; external: only as `npm run worker`.
  WORKER: z.enum(["internal", "external"]).default("internal"),
  // How many reverse proxies stand in front, each appending to X-Forwarded-For; 0: none, the
  // socket's address is the client's (lib/security/client-ip.ts).
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Web scraper (lib/context/web/scraper-config.ts parses both): the DNS servers (ip or ip:port,
  // comma-separated) that resolve the sites it reads, unset: the system's resolver; and the
  // host:port pairs it may read although they are private (intranet sites), unset: none.
  SCRAPER_DNS_SERVERS: z.string().optional(),
  SCRAPER_ALLOW_PRIVATE_HOSTS: z.string().optional(),
});
export type Env = z.infer<typeof Env>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= readEnv(process.env);
  return cached;
}

/** The configuration of these variables, or an error naming each one that is wrong. */
export function readEnv(source: Record<string, string | undefined>): Env {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** The origin every emailed link and redirect check is built from (never the Host header). */
export function appOrigin(): string {
  return new URL(env().APP_URL).origin;
}

export function isProduction(): boolean {
  return env().NODE_ENV === "production";
}

export function googleConfigured(): boolean {
  const e = env();
  return Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET);
}
