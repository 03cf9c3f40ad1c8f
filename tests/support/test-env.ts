// Environment every test process shares. AUTH_SECRET is fixed: tests need no real secret.
export const TEST_PG_PORT = Number(process.env.TEST_PG_PORT ?? 54339);

export function applyTestEnv(): void {
  process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
  process.env.APP_URL ??= "http://localhost:3000";
  process.env.LOG_LEVEL ??= "silent";
  process.env.DATABASE_POOL_MAX ??= "5";
}

/** Tests drop and create databases: they refuse to touch anything but a local server. */
export function assertLocalDatabase(url: string): void {
  const host = new URL(url).hostname;
  if (!["localhost", "127.0.0.1", "::1", "[::1]"].includes(host)) {
    throw new Error(
      `Refusing to run tests against a non-local database (${host}). Use a local TEST_DATABASE_URL.`,
    );
  }
}
