import "server-only";
import { z } from "zod";
import { sessionCookieName } from "@/lib/auth/session-token";
import { logError } from "@/lib/log";
import pkg from "@/package.json";
import { BODY_CAPS } from "./body-caps";
import { TAG_DESCRIPTIONS } from "./openapi-tags";
import { type AuthMode, ROUTE_META, type RouteMeta, SAFE_METHODS } from "./route";

// The OpenAPI 3.1 document of /api (GET /api/openapi.json). Every operation is read from the
// route modules themselves: the options their route() wrapper validates with (ROUTE_META), their
// zod schemas converted with zod's own z.toJSONSchema. Nothing here restates a route's input,
// so the document cannot drift from the code. The list of modules is generated from the files
// (scripts/api-routes.ts), as Next bundles route handlers statically.

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
};

/** GET /api/openapi.json: the document's outline, as its route answers it (every part is JSON). */
export const OpenApiDocumentAnswer = z.object({
  openapi: z.literal("3.1.0"),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  servers: z.array(z.object({ url: z.string(), description: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))),
  components: z.record(z.string(), z.record(z.string(), z.unknown())),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
});

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Route files deliberately left out of the document, and why. */
export const EXCLUDED_ROUTES: Record<string, string> = {
  "app/api/bench/baseline/route.ts":
    "GET /api/bench/baseline: the bare baseline handler of `npm run bench`; it answers 404 unless the server runs with BENCH_ROUTES=1",
  "app/api/bench/save-baseline/route.ts":
    "PATCH /api/bench/save-baseline: the bare app-save baseline of `npm run bench`; it answers 404 unless the server runs with BENCH_ROUTES=1",
};

const AUTHJS_FILE = "app/api/auth/[...nextauth]/route.ts";

const WHO: Record<AuthMode, string> = {
  public: "anybody (a session is read when one is sent).",
  user: "any signed-in user: a builder, or an end user of a published app.",
  builder: "a signed-in builder of the platform whose email address is verified (not an end user of an app).",
  admin: "a signed-in builder whose account is an admin.",
  appToken:
    "a space app's own code, with the app token of its signed-in user, or without one as anonymous; the entity's access levels decide (no cookie is read).",
};

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
const errorResponse = (description: string) => ({ description, content: errorContent });
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The shared error answers, by status: what each means wherever it is answered. */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: "BadRequest",
    description: "The input is not valid (INVALID_INPUT lists the issues), or the request was refused",
  },
  401: { name: "Unauthenticated", description: "No session, or it has ended" },
  402: { name: "PaymentRequired", description: "The end user has no active membership of the app" },
  403: {
    name: "Forbidden",
    description:
      "The caller may not do this (another kind of user, a plan that does not allow it, a cookie sent from another site)",
  },
  404: { name: "NotFound", description: "No such thing, or not one the caller may see" },
  409: { name: "Conflict", description: "The state changed under the request (e.g. a save lost to another)" },
  413: { name: "PayloadTooLarge", description: "The body is over this route's size limit" },
  429: { name: "TooManyRequests", description: "Rate limited, or too many attempts: try again later" },
  500: {
    name: "InternalError",
    description: "An unexpected error of the server (logged with the request id)",
  },
  502: {
    name: "BadGateway",
    description:
      "An outside service (the model provider, say) failed or answered nonsense, or a function crashed",
  },
  503: { name: "NotConfigured", description: "A service this route needs is not configured on this server" },
  504: {
    name: "GatewayTimeout",
    description: "The work ran past its time limit (a space app's function, say)",
  },
};

const COMPONENTS = {
  schemas: {
    Error: {
      type: "object",
      description: "Every error answer (lib/errors.ts). Some carry more fields beside `error`.",
      required: ["error"],
      properties: {
        error: {
          type: "object",
          required: ["code", "message"],
          properties: {
            code: {
              type: "string",
              description: "Machine-readable, e.g. INVALID_INPUT, auth/invalid-credential",
            },
            message: { type: "string", description: "The message to show the user" },
            field: {
              type: "string",
              description: "The field of the request the error is about (a space app's data API)",
            },
            issues: {
              type: "array",
              description: "What was wrong with the input (INVALID_INPUT)",
              items: {
                type: "object",
                required: ["path", "message"],
                properties: { path: { type: "string" }, message: { type: "string" } },
              },
            },
          },
        },
      },
    },
  },
  responses: Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(({ name, description }) => [name, errorResponse(description)]),
  ),
};

/** The shared error answer of a status (components.responses). */
const errorRef = (status: number) => ref(ERROR_RESPONSES[status]!.name);

function securitySchemes() {
  return {
    bearerAuth: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
      description:
        "A token from POST /api/identity/sign-in-with-password, renewed with POST /api/identity/token before it expires (an hour)",
    },
    appToken: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
      description:
        "A space app's token, from POST /api/apps/{appId}/runtime/token: one app, one user, an hour. Optional: without it the caller is anonymous",
    },
    sessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: sessionCookieName(),
      description: "The session cookie set by signing in on the site",
    },
  };
}

const SECURITY = [{ bearerAuth: [] }, { sessionCookie: [] }];
const APP_TOKEN_SECURITY = [{}, { appToken: [] }];

const LOCATION = { Location: { description: "Where the redirect goes", schema: { type: "string" } } };

/** The result of building: the document, and what could not be described (empty when all is well). */
export type OpenApiBuild = { document: OpenApiDocument; problems: string[] };

/** A handler's one-line comment, read from its source. */
export type ApiRouteDocs = Partial<Record<string, { summary: string; description?: string }>>;

export type ApiRouteInfo = { file: string; path: string; docs: ApiRouteDocs };

export type ApiRoute = ApiRouteInfo & { load: () => Promise<object> };

type Source = ApiRoute;

/**
 * The route modules the document describes: app/api/routes.generated.ts, handed over by the layer
 * above (lib/ imports no route).
 */
export type ApiRegistry = { apiRoutes: readonly ApiRoute[]; openApiRoute: ApiRouteInfo | null };

/** The registry's routes, and the document's own route with the module it hands over. */
export function openApiSources(registry: ApiRegistry, selfModule?: object): Source[] {
  const { apiRoutes, openApiRoute } = registry;
  const self = openApiRoute && selfModule ? [{ ...openApiRoute, load: async () => selfModule }] : [];
  return [...apiRoutes, ...self];
}

let cached: Promise<OpenApiDocument> | undefined;

/** The document, built on the first call and kept: route modules do not change while a server runs. */
export function openApiDocument(registry: ApiRegistry, selfModule: object): Promise<OpenApiDocument> {
  if (!cached) {
    cached = buildOpenApi(openApiSources(registry, selfModule)).then(({ document, problems }) => {
      if (problems.length) logError("openapi: some routes could not be described", { problems });
      return document;
    });
    // A failed build is not kept: the next call tries again.
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}

export async function buildOpenApi(sources: Source[]): Promise<OpenApiBuild> {
  const problems: string[] = [];
  const schemas = new SchemaStore(problems);
  const paths: OpenApiDocument["paths"] = {};
  const operationIds = new Set<string>();
  const excluded: string[] = [];

  for (const source of sources) {
    if (EXCLUDED_ROUTES[source.file]) {
      excluded.push(EXCLUDED_ROUTES[source.file]!);
      continue;
    }
    let mod: Record<string, unknown>;
    try {
      mod = (await source.load()) as Record<string, unknown>;
    } catch (err) {
      problems.push(`${source.file}: cannot be imported (${(err as Error).message})`);
      continue;
    }
    for (const method of HTTP_METHODS) {
      const handler = mod[method];
      if (typeof handler !== "function") continue;
      const meta = (handler as { [ROUTE_META]?: RouteMeta })[ROUTE_META];
      const where = `${method} ${source.path} (${source.file})`;
      let op: Operation;
      if (meta) op = routeOperation(meta, method, source, schemas, where);
      else if (source.file === AUTHJS_FILE) op = authJsOperation(method, source.path);
      else if (source.file === PREVIEW_DOCUMENT_FILE) op = previewDocumentOperation(source.path);
      else {
        problems.push(`${where}: not wrapped in route(), and not described by hand in lib/api/openapi.ts`);
        op = {
          summary: `${method} ${source.path}`,
          tags: [tagOf(source.path)],
          responses: { 500: errorRef(500) },
        };
      }
      op.operationId = uniqueId(operationId(method, source.path), operationIds);
      op.parameters = [...pathParameters(source.path, op.parameters as Param[] | undefined)];
      if ((op.parameters as Param[]).length === 0) delete op.parameters;
      paths[source.path] = { ...paths[source.path], [method.toLowerCase()]: order(op) };
    }
  }

  const sortedPaths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((p) => [p, paths[p]!]),
  );
  const tags = [
    ...new Set(
      Object.values(sortedPaths).flatMap((ops) =>
        Object.values(ops).flatMap((o) => (o.tags as string[] | undefined) ?? []),
      ),
    ),
  ];
  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: { title: pkg.name, version: pkg.version, description: infoDescription(excluded) },
    servers: [{ url: "/", description: "The server that serves this document" }],
    paths: sortedPaths,
    components: {
      schemas: { ...COMPONENTS.schemas, ...schemas.components },
      // Only the shared answers some operation refers to.
      responses: usedResponses(sortedPaths),
      securitySchemes: securitySchemes(),
    },
    tags: tags.sort().map((name) => {
      const description = TAG_DESCRIPTIONS[name];
      if (!description) problems.push(`tag ${name}: no description in lib/api/openapi-tags.ts`);
      return { name, description: description ?? name };
    }),
  };
  return { document, problems };
}

function usedResponses(paths: OpenApiDocument["paths"]): Record<string, unknown> {
  const text = JSON.stringify(paths);
  return Object.fromEntries(
    Object.entries(COMPONENTS.responses).filter(([name]) =>
      text.includes(`"#/components/responses/${name}"`),
    ),
  );
}

function infoDescription(excluded: string[]): string {
  return [
    "Every route under /api, read from the zod schemas its handler validates with.",
    "",
    "Authentication: send `Authorization: Bearer <token>`; POST /api/identity/sign-in-with-password answers a token " +
      "for an email and password, and POST /api/identity/token a fresh one before it expires (an hour). The session " +
      "cookie of the site is accepted as well; a request it authenticates must come from the site itself.",
    "",
    "Errors answer `{ error: { code, message } }` (components.schemas.Error) with their HTTP status; each " +
      "operation lists the statuses it can answer.",
    ...(excluded.length ? ["", "Not described here, deliberately:", ...excluded.map((e) => `- ${e}`)] : []),
  ].join("\n");
}

type Param = {
  name: string;
  in: "path" | "query";
  required?: boolean;
  schema: JsonSchema;
  [k: string]: unknown;
};

/** A form's parts: the `file` part is bytes, the others text; all required. */
function formSchema(parts: Readonly<Record<string, string>>): JsonSchema {
  return {
    type: "object",
    required: Object.keys(parts),
    properties: Object.fromEntries(
      Object.entries(parts).map(([name, description]) => [
        name,
        name === "file" ? { type: "string", format: "binary", description } : { type: "string", description },
      ]),
    ),
  };
}

function routeOperation(
  meta: RouteMeta,
  method: string,
  source: Source,
  schemas: SchemaStore,
  where: string,
): Operation {
  const base = operationId(method, source.path);
  const parameters: Param[] = [];
  if (meta.params) {
    parameters.push(
      ...objectParameters(schemas.convert(meta.params, `${base}Params`, `${where} params`), "path"),
    );
  }
  if (meta.query) {
    parameters.push(
      ...objectParameters(schemas.convert(meta.query, `${base}Query`, `${where} query`), "query"),
    );
  }
  const cap = BODY_CAPS[meta.cap ?? "json"];
  let requestBody: Record<string, unknown> | undefined;
  if (meta.body) {
    const { schema, root } = schemas.convert(meta.body, `${base}Body`, `${where} body`);
    // The schema's first example (zod's `.meta({ examples })`) is the request's example too.
    const example = Array.isArray(root.examples) ? root.examples[0] : undefined;
    requestBody = {
      required: Array.isArray(root.required) && root.required.length > 0,
      description: `JSON, at most ${cap} bytes`,
      content: { "application/json": { schema, ...(example !== undefined ? { example } : {}) } },
    };
  } else if ((meta.upload?.length || meta.raw) && method !== "GET" && method !== "HEAD") {
    // A file's bytes (or a signed payload), read unparsed: binary content of its media types. A GET
    // of a route taking any method (a function's public URL) has no body to describe.
    const types = meta.upload?.length ? meta.upload : ["application/octet-stream"];
    requestBody = {
      required: true,
      description: meta.upload?.length
        ? `The file's bytes, at most ${cap} bytes`
        : `The body's bytes, read unparsed (e.g. a signed payload), at most ${cap} bytes`,
      content: Object.fromEntries(
        types.map((type) => [
          type,
          type === "multipart/form-data" && meta.parts
            ? { schema: formSchema(meta.parts) }
            : { schema: { type: "string", format: "binary", contentMediaType: type } },
        ]),
      ),
    };
  }
  const hasInput = Boolean(meta.params || meta.query || requestBody);
  const success: Record<string, unknown> = {};
  if (meta.response) {
    const { schema } = schemas.convert(meta.response, `${base}Answer`, `${where} response`, "output");
    success["application/json"] = { schema };
  }
  if (meta.stream) success[meta.stream.contentType] = { schema: { type: "string" } };
  // A route that only redirects (to a provider's consent page) has no 200.
  const onlyRedirects = !meta.response && !meta.stream && Object.keys(meta.redirects ?? {}).length > 0;
  // The CORS preflight of a space app's frame answers 204 with headers only.
  const preflight = method === "OPTIONS" && meta.auth === "appToken";
  if (!meta.response && !meta.stream && !onlyRedirects && !preflight) {
    schemas.problems.push(
      `${where}: no success answer declared (route option \`response\`, \`stream\` or \`redirects\`)`,
    );
    success["application/json"] = { schema: {} };
  }
  // Every status the operation can answer: those the wrapper derives from the route's options,
  // those its handler declares (`errors`), and 500 for the unexpected.
  const statuses = new Set<number>(meta.errors ?? []);
  if (hasInput) statuses.add(400);
  if (meta.auth === "appToken") {
    // The app or the entity may not exist (or be hidden from the caller); a preflight refuses nothing.
    if (method !== "OPTIONS") for (const s of [401, 403, 404]) statuses.add(s);
  } else if (meta.auth !== "public") {
    statuses.add(401);
    statuses.add(403);
  } else if (!SAFE_METHODS.has(method)) {
    // A session cookie sent from another site is refused on any mutation, public ones too.
    statuses.add(403);
  }
  if (meta.app) statuses.add(404);
  if (requestBody) statuses.add(413);
  statuses.add(500);
  const responses: Record<string, unknown> = {
    ...(onlyRedirects
      ? {}
      : preflight
        ? { 204: { description: "The CORS preflight's answer: what the app's frame may send" } }
        : { 200: { description: meta.stream ? meta.stream.description : "Success", content: success } }),
    ...Object.fromEntries(
      Object.entries(meta.redirects ?? {}).map(([status, description]) => [
        status,
        status === "304" ? { description } : { description, headers: LOCATION },
      ]),
    ),
    ...Object.fromEntries(
      [...statuses].sort((x, y) => x - y).map((status) => [String(status), errorRef(status)]),
    ),
  };
  const docs = source.docs[method];
  const who = [
    `Who may call: ${WHO[meta.auth]}`,
    ...(meta.app
      ? [
          "The app of the path must be the caller's own (or the caller an admin); for anybody else it does not exist (404).",
        ]
      : []),
  ].join(" ");
  return {
    summary: meta.summary ?? docs?.summary ?? `${method} ${source.path}`,
    description: [docs?.description, who].filter(Boolean).join("\n\n"),
    tags: [tagOf(source.path)],
    "x-auth": meta.auth,
    security: meta.auth === "public" ? [] : meta.auth === "appToken" ? APP_TOKEN_SECURITY : SECURITY,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

const PREVIEW_DOCUMENT_FILE = "app/api/apps/[appId]/versions/[versionId]/preview/document/route.ts";

// The document of a space app's preview does not use route(): it must read no session at all
// (lib/space/preview/service.ts). Described by hand.
function previewDocumentOperation(path: string): Operation {
  return {
    summary: "The preview document of a space app version, opened by its signed link",
    description:
      "Not called by API clients: the `url` answered by GET .../preview points here, for an iframe with " +
      '`sandbox="allow-scripts allow-forms"`. The short-lived `token` of that link is the only authorization ' +
      "(no cookie or bearer token is read). An HTML page served with `Content-Security-Policy: sandbox ...`; " +
      "errors are JSON: 403 PREVIEW_LINK_INVALID / PREVIEW_LINK_EXPIRED, 404 when the version is gone.",
    tags: [tagOf(path)],
    "x-auth": "public",
    security: [],
    parameters: [
      {
        name: "token",
        in: "query",
        required: true,
        description: "The signed link's token (a few minutes)",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": { description: "The preview page", content: { "text/html": { schema: { type: "string" } } } },
      "403": errorResponse("No, a forged, an expired, or another version's token"),
      "404": errorResponse("The version does not exist any more"),
      "500": errorRef(500),
    },
  };
}

// Auth.js's catch-all does not use route(): described by hand. API clients need none of it
// (the /api/identity routes answer bearer tokens); the site's pages use it to sign in.
function authJsOperation(method: string, path: string): Operation {
  const docs: Record<string, { summary: string; description: string }> = {
    GET: {
      summary: "Auth.js endpoints: session, CSRF token, providers, Google's callback",
      description:
        "Handled by Auth.js (next-auth v5), not by the route wrapper. `{nextauth}` is the Auth.js action: " +
        "`session` (the session of the cookie, as JSON, or null), `csrf` (the token its POSTs need), `providers`, " +
        "`callback/google` (where Google sends the browser back), `signin`, `signout`, `error`. " +
        "The cookie is read; a bearer token is not.",
    },
    POST: {
      summary: "Auth.js endpoints: sign in with a provider, sign out",
      description:
        "Handled by Auth.js (next-auth v5), not by the route wrapper. `{nextauth}` is the Auth.js action: " +
        "`callback/password` (email, password), `callback/token` (a one-time customToken), `signin/google`, `signout`. " +
        "Form posts carrying the `csrfToken` of GET /api/auth/csrf; answers are redirects that set or clear the session cookie.",
    },
  };
  const d = docs[method] ?? {
    summary: `Auth.js: ${method} ${path}`,
    description: "Handled by Auth.js (next-auth v5).",
  };
  return {
    summary: d.summary,
    description: d.description,
    tags: [tagOf(path)],
    "x-auth": "public",
    security: [],
    parameters: [
      {
        name: "nextauth",
        in: "path",
        required: true,
        description: "The Auth.js action and its arguments, e.g. `session` or `callback/google`",
        schema: { type: "string" },
      },
    ],
    ...(method === "POST"
      ? {
          requestBody: {
            required: true,
            description: `A form post, at most ${BODY_CAPS.authForm} bytes`,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  properties: { csrfToken: { type: "string" } },
                  required: ["csrfToken"],
                },
              },
            },
          },
        }
      : {}),
    responses: {
      200: {
        description: "JSON (session, csrf, providers) or a page",
        content: { "application/json": { schema: {} }, "text/html": { schema: { type: "string" } } },
      },
      302: {
        description: "A redirect (sign-in, callbacks, sign-out; errors go to /login?error=...)",
        headers: LOCATION,
      },
      400: {
        description: "Not an Auth.js action (Auth.js's own answer, not the Error shape)",
        content: { "text/plain": { schema: { type: "string" } }, "application/json": { schema: {} } },
      },
      ...(method === "POST" ? { 413: errorRef(413) } : {}),
      500: errorRef(500),
    },
  };
}

/** Each property of an object schema as a parameter; any other shape as one form-style parameter. */
function objectParameters({ root }: { root: JsonSchema }, where: "path" | "query"): Param[] {
  const properties = root.properties as Record<string, JsonSchema> | undefined;
  if (root.type !== "object" || !properties) {
    // Not an object with named fields (a union, say): its fields ride as separate query parameters.
    return where === "query"
      ? [{ name: "query", in: "query", style: "form", explode: true, schema: root }]
      : [];
  }
  const required = new Set(Array.isArray(root.required) ? (root.required as string[]) : []);
  return Object.entries(properties).map(([name, schema]) => {
    // A catch-all (`[...name]`) is validated as the list of its segments; in the URL it is text.
    const catchAll = where === "path" && schema.type === "array";
    const description = catchAll
      ? "The rest of the path: one or more segments separated by /"
      : (schema.description as string | undefined);
    return {
      name,
      in: where,
      // A path parameter is always present (OpenAPI requires `required: true`).
      required: where === "path" || required.has(name),
      ...(description ? { description } : {}),
      schema: catchAll ? { type: "string" } : schema,
    };
  });
}

/** Every `{name}` of the URL, declared once, in URL order; the route's schema where it has one. */
function pathParameters(path: string, declared: Param[] = []): Param[] {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const fromPath = names.map(
    (name) =>
      declared.find((p) => p.in === "path" && p.name === name) ?? {
        name,
        in: "path" as const,
        required: true,
        schema: { type: "string" },
      },
  );
  return [...fromPath, ...declared.filter((p) => p.in !== "path")];
}

function tagOf(path: string): string {
  return (path.split("/")[2] ?? "api").replace(/\.\w+$/, "");
}

function operationId(method: string, path: string): string {
  const words = path
    .split("/")
    .filter((s) => s && s !== "api")
    .flatMap((s) => {
      const param = /^\{(.+)\}$/.exec(s);
      return (param ? `by ${param[1]}` : s).split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join("");
}

function uniqueId(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}${n}`;
  taken.add(candidate);
  return candidate;
}

// Operation fields in the order the specification lists them, for a readable document.
const FIELD_ORDER = [
  "operationId",
  "summary",
  "description",
  "tags",
  "x-auth",
  "security",
  "parameters",
  "requestBody",
];
function order(op: Operation): Operation {
  const keys = Object.keys(op).sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(keys.map((k) => [k, op[k]]));
}
const rank = (k: string) => (FIELD_ORDER.includes(k) ? FIELD_ORDER.indexOf(k) : FIELD_ORDER.length);

/**
 * Converts zod schemas to the JSON Schema of OpenAPI 3.1 (draft 2020-12) and keeps what they
 * share: definitions zod emits (`$defs`: recursive parts, schemas with a registered `id`) become
 * components.schemas, and their `$ref`s point there, as a reference inside the document resolves
 * from the document's root. An input is converted on its input side (what a client sends: before
 * transforms and defaults), an answer on its output side (what the client receives: an object
 * lists all its fields and no others); what JSON Schema cannot say (a transform's function, a date object) becomes `{}`,
 * so no schema can break the document. A schema zod still refuses is reported and left open.
 */
class SchemaStore {
  readonly components: Record<string, JsonSchema> = {};

  constructor(readonly problems: string[]) {}

  /** `schema`: what to put in the document (a $ref when the root refers to itself); `root`: the schema itself. */
  convert(
    zodSchema: z.ZodType,
    name: string,
    where: string,
    io: "input" | "output" = "input",
  ): { schema: JsonSchema; root: JsonSchema } {
    let json: JsonSchema;
    try {
      json = z.toJSONSchema(zodSchema, {
        target: "draft-2020-12",
        io,
        unrepresentable: "any",
      }) as JsonSchema;
    } catch (err) {
      this.problems.push(`${where}: zod cannot convert it to JSON Schema (${(err as Error).message})`);
      return { schema: {}, root: {} };
    }
    const { $schema: _dialect, $defs, ...root } = json;
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    const rootName = this.freeName(name);
    const names = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) names.set(id, this.nameFor(id, def, name));
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== "object") return node;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") {
          if (v === "#") out[k] = `#/components/schemas/${rootName}`;
          else if (v.startsWith("#/$defs/"))
            out[k] = `#/components/schemas/${names.get(v.slice(8)) ?? v.slice(8)}`;
          else out[k] = v;
        } else out[k] = rewrite(v);
      }
      return withKeyProperties(out);
    };
    for (const [id, def] of Object.entries(defs))
      this.components[names.get(id)!] = rewrite(def) as JsonSchema;
    const rewritten = rewrite(root) as JsonSchema;
    if (JSON.stringify(root).includes('"$ref":"#"')) {
      // The root refers to itself: it becomes a component, and the document refers to it.
      this.components[rootName] = rewritten;
      return { schema: { $ref: `#/components/schemas/${rootName}` }, root: rewritten };
    }
    return { schema: rewritten, root: rewritten };
  }

  // A registered id keeps its name when it is free, or already holds the same schema.
  private nameFor(id: string, def: JsonSchema, owner: string): string {
    const clean = id.replace(/[^A-Za-z0-9._-]/g, "_");
    if (!clean.startsWith("__")) {
      const existing = this.components[clean];
      if (!existing || JSON.stringify(existing) === JSON.stringify(def)) return clean;
    }
    return this.freeName(`${owner}_${clean.replace(/^_+/, "")}`);
  }

  private freeName(name: string): string {
    let candidate = name;
    for (let n = 2; this.components[candidate] || candidate === "Error"; n++) candidate = `${name}${n}`;
    return candidate;
  }
}

/**
 * A record over a closed set of keys (zod's `z.record(z.enum([...]), v)`) converts to `required`
 * keys with no `properties`; each key is named a property of the value's schema, so a reader
 * (and a linter) sees where the required keys are described.
 */
function withKeyProperties(node: Record<string, unknown>): Record<string, unknown> {
  const required = node.required;
  const values = node.additionalProperties;
  if (!Array.isArray(required) || node.properties || !values || typeof values !== "object") return node;
  return { ...node, properties: Object.fromEntries(required.map((key) => [key, values])) };
}
