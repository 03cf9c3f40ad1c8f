import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { appTokenOrNone } from "../support/app-data";
import { cookieFor, fromIp, tokenFor } from "../support/factories";
import { call } from "../support/http";
import {
  ACTORS,
  type ActorName,
  type Answer,
  createWorld,
  type Expected,
  HTTP_METHODS,
  type HttpMethod,
  matches,
  type Row,
  rows,
  type SignedInActor,
  type Via,
  type World,
} from "../support/matrix";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every route handler file under app/api, as a path relative to the project. */
function routeFiles(): string[] {
  const dir = path.join(ROOT, "app/api");
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => /(^|\/)route\.(ts|tsx|js|mjs)$/.test(f))
    .map((f) => path.posix.join("app/api", f.split(path.sep).join("/")))
    .sort();
}

type Handler = Parameters<typeof call>[0];
type RouteModule = Partial<Record<HttpMethod, Handler>>;

const loadRoute = (file: string) => import(/* @vite-ignore */ path.join(ROOT, file)) as Promise<RouteModule>;

describe("every route has rows in the authorization matrix", () => {
  it("lists every app/api/**/route.ts file, and no file that is gone", () => {
    const files = routeFiles();
    const inMatrix = new Set(rows.map((r) => r.file));
    const missing = files.filter((f) => !inMatrix.has(f));
    const stale = [...inMatrix].filter((f) => !files.includes(f));
    expect(missing, "route files without a row in tests/support/matrix.ts").toEqual([]);
    expect(stale, "rows whose route file no longer exists").toEqual([]);
  });

  it("has exactly one row per exported HTTP handler", async () => {
    const problems: string[] = [];
    for (const file of routeFiles()) {
      const mod = await loadRoute(file);
      const exported = HTTP_METHODS.filter((m) => typeof mod[m] === "function");
      for (const method of exported) {
        const n = rows.filter((r) => r.file === file && r.method === method).length;
        if (n !== 1) problems.push(`${method} ${file}: ${n} rows`);
      }
      for (const r of rows.filter((r) => r.file === file && !exported.includes(r.method))) {
        problems.push(`${r.method} ${file}: row for a handler the file does not export`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("authorization matrix", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  const onExit: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const fn of onExit.splice(0)) await fn();
  });

  async function exercise(row: Row, actor: ActorName, via: Via | null): Promise<Answer> {
    const handler = (await loadRoute(row.file))[row.method]!;
    const spec = row.request(world, actor);
    const who = actor === "anonymous" ? undefined : world.actors[actor];
    // A row that ends sessions ("sign out everywhere" ends them all): the actor signs in afresh after it.
    if (who && row.freshSession) {
      onExit.push(async () => {
        const fresh = { token: await tokenFor(who.user), cookie: await cookieFor(who.user) };
        world.actors[actor as SignedInActor] = { ...who, ...fresh };
      });
    }
    // The app token the actor's session gets for the app of the request, as the page around the
    // app's frame would ask for it (none: the app's code calls as anonymous).
    const appToken =
      via === "appToken" && who ? await appTokenOrNone(spec.params?.appId as string, who.token) : null;
    return call(handler, {
      method: row.method,
      path: spec.path,
      params: spec.params,
      body: spec.body,
      rawBody: spec.rawBody,
      headers: { ...fromIp(), ...spec.headers },
      token: via === "bearer" ? who?.token : (appToken ?? undefined),
      cookie: via === "cookie" ? who?.cookie : undefined,
    });
  }

  /** What the row says an actor gets with this credential (see Row.appToken for app-token routes). */
  function expectedOf(row: Row, actor: ActorName, via: Via | null): Expected {
    if (row.appToken && via === "bearer") return row.appToken.sessionBearer;
    if (row.appToken && via === "cookie") return row.expect.anonymous;
    return row.expect[actor];
  }

  const viasOf = (row: Row, actor: ActorName): (Via | null)[] =>
    actor === "anonymous" ? [null] : row.appToken ? ["bearer", "cookie", "appToken"] : ["bearer", "cookie"];
  const cases = rows.flatMap((row) =>
    ACTORS.flatMap((actor) => viasOf(row, actor).map((via) => ({ row, actor, via }))),
  );

  it.each(cases.map((c) => [`${c.row.method} ${c.row.file}`, c.actor, c.via ?? "no credential", c] as const))(
    "%s as %s (%s)",
    async (_name, actor, _via, { row, via }) => {
      const res = await exercise(row, actor, via);
      const expected = expectedOf(row, actor, via);
      expect(res.status, `expected ${expected} (${row.who}), answer ${JSON.stringify(res.json)}`).toSatisfy(
        (s: number) => matches(s, expected),
      );
      expect(res.status, "never a 500").toBeLessThan(500);
      // A session's own token is no app token: refused as such, not taken for anonymous.
      if (row.appToken && via === "bearer" && res.status === 401)
        expect((res.json as { error: { code: string } }).error.code).toBe("APP_TOKEN_INVALID");
      row.check?.(res, actor, via, world);
    },
  );
});
