import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as openApiRouteModule from "../../app/api/openapi.json/route";
import * as registry from "../../app/api/routes.generated";
import { apiRoutes, openApiRoute } from "../../app/api/routes.generated";
import {
  buildOpenApi,
  EXCLUDED_ROUTES,
  HTTP_METHODS,
  type OpenApiDocument,
  openApiSources,
} from "../../lib/api/openapi";
import { route } from "../../lib/api/route";
import pkg from "../../package.json";
import { GENERATED_FILE, renderApiRoutes } from "../../scripts/api-routes";
import { call } from "../support/http";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every route handler file under app/api, found here independently of the generator. */
function routeFiles(): string[] {
  const dir = path.join(ROOT, "app/api");
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => /(^|\/)route\.(ts|tsx|js|mjs)$/.test(f))
    .map((f) => `app/api/${f}`)
    .sort();
}

/** The URL of a route file, as Next routes it: `[x]` and `[...x]` are the parameter x. */
const urlOf = (file: string) =>
  `/${file
    .replace(/^app\//, "")
    .replace(/\/route\.\w+$/, "")
    .replace(/\/\([^/]+\)/g, "")
    .replace(/\[{1,2}(?:\.\.\.)?(\w+)\]{1,2}/g, "{$1}")}`;

type Op = {
  operationId: string;
  summary: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, unknown>;
};

const opOf = (doc: OpenApiDocument, p: string, method: string) =>
  doc.paths[p]?.[method.toLowerCase()] as Op | undefined;

/** Follows a local JSON pointer (`#/components/schemas/Error`) from the document's root. */
function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!node || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsIn(n, found);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

/** Structural problems a client generator would trip over. */
function validityProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  for (const ref of refsIn(doc)) if (resolve(doc, ref) === undefined) problems.push(`unresolved $ref ${ref}`);
  const ids = new Set<string>();
  const schemes = Object.keys(doc.components.securitySchemes ?? {});
  const tags = new Set(doc.tags.map((t) => t.name));
  for (const [p, ops] of Object.entries(doc.paths)) {
    const inUrl = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const [method, raw] of Object.entries(ops)) {
      const op = raw as Op;
      const where = `${method.toUpperCase()} ${p}`;
      const declared = (op.parameters ?? []).filter((x) => x.in === "path");
      for (const name of inUrl) {
        const matching = declared.filter((x) => x.name === name);
        if (matching.length !== 1)
          problems.push(`${where}: path parameter {${name}} declared ${matching.length} times`);
        else if (matching[0]!.required !== true)
          problems.push(`${where}: path parameter {${name}} is not required`);
      }
      for (const x of declared)
        if (!inUrl.includes(x.name)) problems.push(`${where}: {${x.name}} is not in the URL`);
      const keys = (op.parameters ?? []).map((x) => `${x.in}:${x.name}`);
      if (new Set(keys).size !== keys.length) problems.push(`${where}: a parameter is declared twice`);
      if (!op.operationId || ids.has(op.operationId))
        problems.push(`${where}: operationId missing or repeated`);
      ids.add(op.operationId);
      if (!op.summary) problems.push(`${where}: no summary`);
      if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${where}: no responses`);
      for (const req of op.security ?? [])
        for (const name of Object.keys(req))
          if (!schemes.includes(name)) problems.push(`${where}: unknown security scheme ${name}`);
      for (const tag of op.tags ?? [])
        if (!tags.has(tag)) problems.push(`${where}: tag ${tag} is not listed`);
    }
  }
  return problems;
}

describe("the registry of route modules (app/api/routes.generated.ts)", () => {
  it("is up to date with app/api", () => {
    const onDisk = fs.readFileSync(path.join(ROOT, GENERATED_FILE), "utf8");
    expect(onDisk === renderApiRoutes(ROOT), `${GENERATED_FILE} is out of date: run npm run api:routes`).toBe(
      true,
    );
  });

  it("lists exactly the route files on disk, each at its URL", () => {
    const listed = [...apiRoutes.map((r) => r.file), ...(openApiRoute ? [openApiRoute.file] : [])].sort();
    expect(listed, `run npm run api:routes`).toEqual(routeFiles());
    for (const r of [...apiRoutes, openApiRoute!]) expect(r.path, r.file).toBe(urlOf(r.file));
    // The document's own route is described, but not imported by the registry it reads.
    expect(openApiRoute?.file).toBe("app/api/openapi.json/route.ts");
    expect(apiRoutes.map((r) => r.file)).not.toContain("app/api/openapi.json/route.ts");
  });
});

describe("the OpenAPI document", () => {
  let doc: OpenApiDocument;
  let problems: string[];
  beforeAll(async () => {
    ({ document: doc, problems } = await buildOpenApi(openApiSources(registry, openApiRouteModule)));
  });

  it("describes every route: each imports, and each schema converts", () => {
    expect(problems).toEqual([]);
  });

  it("has every exported handler of every route file under its path and method, and nothing else", async () => {
    const missing: string[] = [];
    const expected = new Set<string>();
    for (const file of routeFiles()) {
      const url = urlOf(file);
      if (EXCLUDED_ROUTES[file]) {
        // A deliberate exclusion is said in the document, and the route is not in it.
        expect(doc.paths[url], file).toBeUndefined();
        expect(doc.info.description).toContain(EXCLUDED_ROUTES[file]);
        continue;
      }
      const mod = (await import(/* @vite-ignore */ path.join(ROOT, file))) as Record<string, unknown>;
      for (const method of HTTP_METHODS) {
        if (typeof mod[method] !== "function") continue;
        expected.add(`${method} ${url}`);
        if (!opOf(doc, url, method)) missing.push(`${method} ${url} (${file})`);
      }
    }
    expect(missing).toEqual([]);
    const described = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(described.filter((d) => !expected.has(d))).toEqual([]);
    expect(expected.size).toBeGreaterThan(20);
  });

  it("is a structurally valid OpenAPI 3.1 document", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: pkg.name, version: pkg.version });
    expect(validityProblems(doc)).toEqual([]);
    // A JSON document, nothing a serializer would drop or change.
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("has a route's body, from the zod schema it validates with", () => {
    const op = opOf(doc, "/api/identity/sign-up", "POST")!;
    const schema = op.requestBody!.content["application/json"]!.schema as {
      properties: Record<string, { type: string; maxLength?: number }>;
      required: string[];
    };
    expect(schema.properties.email).toMatchObject({ type: "string" });
    expect(schema.properties.email!.maxLength).toBeGreaterThan(0);
    expect(schema.required).toEqual(expect.arrayContaining(["email", "password"]));
    expect(schema.required).not.toContain("appId");
    // Public: no credential needed; input and a body, so 400 and 413 can happen, 401 cannot; a
    // cookie from another site is refused (403); 500 is the unexpected, never a catch-all default.
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "403", "413", "500"]));
    expect(op.responses["401"]).toBeUndefined();
    expect(op.responses.default).toBeUndefined();
    // The body schema's example (zod's .meta({ examples })) is the request's example.
    expect(op.requestBody!.content["application/json"]).toMatchObject({
      example: { email: expect.stringContaining("@"), password: expect.any(String) },
    });
    // The summary comes from the comment above the handler when the route gives none.
    expect(op.summary).toMatch(/^Create a user with email and password/);
  });

  it("has an example for every JSON request body", () => {
    const without = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => {
          const json = (op as Op).requestBody?.content["application/json"] as
            | { example?: unknown }
            | undefined;
          return json && json.example === undefined;
        })
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(without, "add .meta({ examples: [...] }) to these body schemas").toEqual([]);
  });

  it("has a route's path and query parameters, and who may call it", () => {
    const del = opOf(doc, "/api/identity/sessions/{sessionId}", "DELETE")!;
    expect(del.parameters).toEqual([
      expect.objectContaining({
        name: "sessionId",
        in: "path",
        required: true,
        schema: expect.objectContaining({ format: "uuid" }),
      }),
    ]);
    expect(del.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(Object.keys(del.responses)).toEqual(expect.arrayContaining(["400", "401", "403"]));

    const outbox = opOf(doc, "/api/dev/outbox", "GET")!;
    expect(outbox.parameters).toEqual([
      expect.objectContaining({ name: "to", in: "query", required: false }),
    ]);

    const magic = opOf(doc, "/api/live_api/account/sendMagicLink", "POST")!;
    expect(magic.parameters).toEqual([
      expect.objectContaining({ name: "appId", in: "query", required: true }),
    ]);

    // No input at all: no 400; signed in: 401 and 403.
    const token = opOf(doc, "/api/identity/token", "POST")!;
    expect(token.responses["400"]).toBeUndefined();
    expect(Object.keys(token.responses)).toEqual(expect.arrayContaining(["200", "401", "403"]));
  });

  it("describes raw bodies, Auth.js and itself", () => {
    const stripe = opOf(doc, "/api/webhooks/stripe", "POST")!;
    expect(stripe.requestBody!.content).toEqual({
      "application/octet-stream": {
        schema: { type: "string", format: "binary", contentMediaType: "application/octet-stream" },
      },
    });
    expect(stripe.security).toEqual([]);

    for (const method of ["GET", "POST"]) {
      const authJs = opOf(doc, "/api/auth/{nextauth}", method)!;
      expect(authJs.summary).toMatch(/^Auth\.js endpoints/);
      expect(authJs.security).toEqual([]);
      expect(authJs.parameters).toEqual([
        expect.objectContaining({ name: "nextauth", in: "path", required: true }),
      ]);
    }

    const self = opOf(doc, "/api/openapi.json", "GET")!;
    expect(self.summary).toBe("This API's OpenAPI 3.1 document");
    expect(self.security).toEqual([]);
  });

  it("is served at GET /api/openapi.json, built once", async () => {
    const first = await call<OpenApiDocument>(openApiRouteModule.GET, {
      method: "GET",
      path: "/api/openapi.json",
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toContain("application/json");
    expect(first.json).toEqual(doc);
    const second = await call<OpenApiDocument>(openApiRouteModule.GET, {
      method: "GET",
      path: "/api/openapi.json",
    });
    expect(second.json).toEqual(first.json);
  });
});

// A handler not wrapped in route(): nothing to describe it with.
const bareHandler = async () => new Response("a bare handler");

describe("schemas JSON Schema cannot fully say", () => {
  type Tree = { name: string; children: Tree[] };
  const Node: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), children: z.array(Node) }));
  const Folder = z.object({
    name: z.string(),
    get children() {
      return z.array(Folder);
    },
  });
  const Shared = z.object({ label: z.string() }).meta({ id: "OpenApiTestShared" });
  const ok = async () => ({});
  // An answer: its output side (a default is always there; no other field may be).
  const Answer = z.object({ id: z.string(), state: z.string().default("new") });

  const sources = [
    {
      file: "app/api/things/[thingId]/route.ts",
      path: "/api/things/{thingId}",
      docs: { PATCH: { summary: "From a comment" } },
      load: async () => ({
        POST: route(
          {
            auth: "builder",
            app: "edit",
            params: z.object({ thingId: z.string() }),
            query: z.object({ limit: z.coerce.number().int().default(10) }),
            body: z.object({
              when: z.date(),
              count: z.string().transform(Number),
              folder: Folder,
              other: Folder,
              tree: Node,
              shared: Shared,
            }),
            response: Answer,
          },
          ok,
        ),
        // No success answer declared: reported.
        PUT: route({ auth: "user", body: Node }, ok),
        PATCH: route(
          {
            auth: "user",
            body: z.object({ shared: Shared }).meta({ examples: [{ shared: { label: "An example" } }] }),
            response: Answer,
            errors: [409, 429],
          },
          ok,
        ),
        DELETE: route(
          {
            auth: "user",
            body: z.object({ a: z.string().meta({ id: "Twice" }), b: z.number().meta({ id: "Twice" }) }),
            response: Answer,
          },
          ok,
        ),
        OPTIONS: route(
          {
            auth: "public",
            params: z.object({ thingId: z.string() }),
            upload: ["image/png", "image/jpeg"],
            response: Answer,
            redirects: { 302: "To the stored copy", 304: "The client's copy is current" },
          },
          ok,
        ),
        GET: bareHandler,
      }),
    },
    {
      file: "app/api/pages/[...segments]/route.ts",
      path: "/api/pages/{segments}",
      docs: {},
      load: async () => ({
        GET: route(
          { auth: "public", params: z.object({ segments: z.array(z.string()).min(1) }), response: Answer },
          ok,
        ),
      }),
    },
    {
      file: "app/api/broken/route.ts",
      path: "/api/broken",
      docs: {},
      load: async () => {
        throw new Error("cannot load");
      },
    },
  ];

  let doc: OpenApiDocument;
  let problems: string[];
  beforeAll(async () => {
    ({ document: doc, problems } = await buildOpenApi(sources));
  });

  it("never break the document; what cannot be described is reported", () => {
    expect(problems).toEqual([
      expect.stringMatching(/^GET \/api\/things\/\{thingId\} .*not wrapped in route\(\)/),
      expect.stringMatching(/^PUT \/api\/things\/\{thingId\} .*no success answer declared/),
      expect.stringMatching(/^DELETE \/api\/things\/\{thingId\} .*body: zod cannot convert it/),
      expect.stringMatching(/^app\/api\/broken\/route\.ts: cannot be imported/),
      // Every tag has a description (lib/api/openapi-tags.ts).
      "tag pages: no description in lib/api/openapi-tags.ts",
      "tag things: no description in lib/api/openapi-tags.ts",
    ]);
    expect(validityProblems(doc)).toEqual([]);
  });

  it("converts the input side, moves recursive and registered schemas to components", () => {
    const post = opOf(doc, "/api/things/{thingId}", "POST")!;
    const body = post.requestBody!.content["application/json"]!.schema as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(body.properties.when).toEqual({});
    expect(body.properties.count).toEqual({ type: "string" });
    expect(body.properties.folder).toEqual(body.properties.other);
    expect(body.properties.folder!.$ref).toMatch(/^#\/components\/schemas\//);
    expect(body.properties.shared).toEqual({ $ref: "#/components/schemas/OpenApiTestShared" });
    expect(post.parameters).toEqual([
      expect.objectContaining({ name: "thingId", in: "path", required: true }),
      expect.objectContaining({ name: "limit", in: "query", required: false }),
    ]);
    // An app route: its owner only, anybody else gets 404.
    expect(Object.keys(post.responses)).toEqual(["200", "400", "401", "403", "404", "413", "500"]);

    // A registered schema used by two routes is one component.
    const patch = opOf(doc, "/api/things/{thingId}", "PATCH")!;
    expect(patch.summary).toBe("From a comment");
    const patchBody = patch.requestBody!.content["application/json"]!.schema as {
      properties: Record<string, unknown>;
    };
    expect(patchBody.properties.shared).toEqual({ $ref: "#/components/schemas/OpenApiTestShared" });
    expect(doc.components.schemas!.OpenApiTestShared).toMatchObject({
      properties: { label: { type: "string" } },
    });

    // A root that refers to itself is a component the body points at.
    const put = opOf(doc, "/api/things/{thingId}", "PUT")!;
    const putRef = (put.requestBody!.content["application/json"]!.schema as { $ref: string }).$ref;
    expect(resolve(doc, putRef)).toMatchObject({ properties: { children: { items: { $ref: putRef } } } });

    expect(opOf(doc, "/api/things/{thingId}", "GET")!.summary).toBe("GET /api/things/{thingId}");

    // A catch-all is one parameter of the URL: the rest of the path, as text.
    expect(opOf(doc, "/api/pages/{segments}", "GET")!.parameters).toEqual([
      expect.objectContaining({ name: "segments", in: "path", required: true, schema: { type: "string" } }),
    ]);
  });

  it("declares the success answer, every error status, examples and upload bodies", () => {
    const post = opOf(doc, "/api/things/{thingId}", "POST")!;
    expect(post.responses["200"]).toEqual({
      description: "Success",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { id: { type: "string" }, state: { type: "string", default: "new" } },
            required: ["id", "state"],
            additionalProperties: false,
          },
        },
      },
    });
    const patch = opOf(doc, "/api/things/{thingId}", "PATCH")!;
    expect(Object.keys(patch.responses)).toEqual(["200", "400", "401", "403", "409", "413", "429", "500"]);
    expect(patch.responses["409"]).toEqual({ $ref: "#/components/responses/Conflict" });
    expect(resolve(doc, "#/components/responses/TooManyRequests")).toMatchObject({
      description: expect.any(String),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
    expect(patch.requestBody!.content["application/json"]).toMatchObject({
      example: { shared: { label: "An example" } },
    });
    const upload = opOf(doc, "/api/things/{thingId}", "OPTIONS")!;
    expect(upload.security).toEqual([]);
    expect(upload.requestBody).toMatchObject({
      required: true,
      content: {
        "image/png": { schema: { type: "string", format: "binary", contentMediaType: "image/png" } },
        "image/jpeg": { schema: { type: "string", format: "binary", contentMediaType: "image/jpeg" } },
      },
    });
    // Public, and OPTIONS is no mutation: a cookie from another site is not refused (no 403).
    expect(Object.keys(upload.responses)).toEqual(["200", "302", "304", "400", "413", "500"]);
    // A redirect says where it goes; a 304 has no body.
    expect(upload.responses["302"]).toEqual({
      description: "To the stored copy",
      headers: { Location: expect.objectContaining({ schema: { type: "string" } }) },
    });
    expect(upload.responses["304"]).toEqual({ description: "The client's copy is current" });
    // Shared answers nobody refers to are left out.
    expect(doc.components.responses?.BadGateway).toBeUndefined();
  });
});
