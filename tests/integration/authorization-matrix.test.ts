import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, fromIp, tokenFor } from "../support/factories";
import { call } from "../support/http";
import {
  ACTORS,
  type ActorName,
  type Answer,
  createWorld,
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
    return call(handler, {
      method: row.method,
      path: spec.path,
      params: spec.params,
      body: spec.body,
      headers: { ...fromIp(), ...spec.headers },
      token: via === "bearer" ? who?.token : undefined,
      cookie: via === "cookie" ? who?.cookie : undefined,
    });
  }

  const cases = rows.flatMap((row) =>
    ACTORS.flatMap((actor) =>
      (actor === "anonymous" ? [null] : (["bearer", "cookie"] as const)).map((via) => ({ row, actor, via })),
    ),
  );

  it.each(cases.map((c) => [`${c.row.method} ${c.row.file}`, c.actor, c.via ?? "no credential", c] as const))(
    "%s as %s (%s)",
    async (_name, actor, _via, { row, via }) => {
      const res = await exercise(row, actor, via);
      const expected = row.expect[actor];
      expect(res.status, `expected ${expected} (${row.who}), answer ${JSON.stringify(res.json)}`).toSatisfy(
        (s: number) => matches(s, expected),
      );
      expect(res.status, "never a 500").toBeLessThan(500);
      row.check?.(res, actor, via, world);
    },
  );
});
