import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { NextRequest } from "next/server";
import * as openApiRouteModule from "../../app/api/openapi.json/route";
import * as registry from "../../app/api/routes.generated";
import { buildOpenApi, HTTP_METHODS, type OpenApiDocument, openApiSources } from "../../lib/api/openapi";
import { fromIp } from "./factories";

// The API document as a client reads it, and the checks of tests/integration/api-contract.test.ts
// and api-fuzz.test.ts: every operation called in-process through its real handler, and every
// answer held against what the document declares for its status (ajv, JSON Schema 2020-12).

export type Handler = (
  req: NextRequest,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

type JsonSchema = Record<string, unknown>;
type Media = { schema?: JsonSchema; example?: unknown };
type ResponseObject = { description?: string; content?: Record<string, Media>; $ref?: string };
export type Parameter = { name: string; in: "path" | "query"; required?: boolean; schema: JsonSchema };
export type Operation = {
  operationId: string;
  "x-auth"?: "public" | "user" | "builder" | "admin" | "appToken";
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses: Record<string, ResponseObject>;
};

export type OperationRef = {
  /** "GET /api/apps/{appId}" */
  name: string;
  method: string;
  path: string;
  op: Operation;
  handler: Handler;
};

/** The document, and every operation of it with the handler that answers it. */
export async function loadContract(): Promise<{ doc: OpenApiDocument; operations: OperationRef[] }> {
  const sources = openApiSources(registry, openApiRouteModule);
  const { document: doc, problems } = await buildOpenApi(sources);
  if (problems.length) console.warn(`API document problems:\n${problems.join("\n")}`);
  const modules = new Map<string, Record<string, unknown>>();
  for (const s of sources) modules.set(s.path, (await s.load()) as Record<string, unknown>);
  const operations: OperationRef[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = ops[method.toLowerCase()] as Operation | undefined;
      if (!op) continue;
      const handler = modules.get(path)?.[method] as Handler | undefined;
      if (!handler) throw new Error(`${method} ${path}: no handler`);
      operations.push({ name: `${method} ${path}`, method, path, op, handler });
    }
  }
  return { doc, operations };
}

export type Request = {
  /** Path parameters; a catch-all as its segments. */
  params?: Record<string, string | string[]>;
  query?: Record<string, string>;
  /** A JSON body (serialized here), or the bytes of one, sent as `contentType`. */
  body?: unknown;
  bytes?: Uint8Array | string;
  contentType?: string;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
};

export type Answer = {
  status: number;
  headers: Headers;
  contentType: string | null;
  text: string;
  json: unknown;
};

/** The URL of an operation: its path with the parameters in, then the query. */
export function urlOf(path: string, r: Request): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = r.params?.[name];
    if (v === undefined) throw new Error(`${path}: no value for {${name}}`);
    return Array.isArray(v) ? v.map(encodeURIComponent).join("/") : encodeURIComponent(v);
  });
  const query = new URLSearchParams(r.query ?? {}).toString();
  return query ? `${filled}?${query}` : filled;
}

/** Calls a handler in-process as Next would, with a fresh client address; reads the whole answer. */
export async function send(ref: OperationRef, r: Request, url = urlOf(ref.path, r)): Promise<Answer> {
  const headers = new Headers({ ...fromIp(), ...r.headers });
  if (r.token) headers.set("authorization", `Bearer ${r.token}`);
  if (r.cookie) headers.set("cookie", r.cookie);
  let body: BodyInit | undefined;
  if (r.bytes !== undefined) {
    body = r.bytes as BodyInit;
    headers.set("content-type", r.contentType ?? "application/octet-stream");
  } else if (r.body !== undefined) {
    body = JSON.stringify(r.body);
    headers.set("content-type", r.contentType ?? "application/json");
  }
  const req = new NextRequest(new URL(url, "http://localhost:3000"), {
    method: ref.method,
    headers,
    body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const res = await ref.handler(req, { params: Promise.resolve(r.params ?? {}) });
  const text = await res.text();
  const contentType = res.headers.get("content-type");
  let json: unknown = null;
  if (contentType?.includes("json") && text) json = JSON.parse(text);
  return { status: res.status, headers: res.headers, contentType, text, json };
}

/** Checks answers against the document; one compiled validator per declared schema. */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      // 0.7 is a multiple of 0.1, as zod (and JSON Schema) mean it; in binary floating point it is not.
      multipleOfPrecision: 9,
    });
    addFormats(this.ajv);
    this.ajv.addFormat("binary", true);
    // The whole document is one schema resource: a `#/components/schemas/...` reference in any
    // declared schema resolves inside it, as it does for a client.
    this.ajv.addSchema({ $id: DOC_ID, components: doc.components, paths: doc.paths });
  }

  /** The response object the document declares for a status, references followed; undefined when none. */
  declared(ref: OperationRef, status: number): ResponseObject | undefined {
    const r = ref.op.responses[String(status)] ?? ref.op.responses.default;
    if (!r?.$ref) return r;
    const name = r.$ref.replace("#/components/responses/", "");
    return (this.doc.components.responses as Record<string, ResponseObject>)[name];
  }

  /** What is wrong with an answer, by the document: an undeclared status, content type or a body off its schema. */
  problems(ref: OperationRef, answer: Answer): string[] {
    const declared = this.declared(ref, answer.status);
    const where = `${ref.name} answered ${answer.status}`;
    if (!declared) return [`${where}: status not declared (${Object.keys(ref.op.responses).join(", ")})`];
    if (!declared.content) return [];
    const type = (answer.contentType ?? "").split(";")[0]!.trim();
    // A declared range (image/*) covers every type of its kind, */* every type (a function's own answer).
    const media =
      declared.content[type] ?? declared.content[`${type.split("/")[0]}/*`] ?? declared.content["*/*"];
    if (!media) {
      return [
        `${where}: content type ${type || "(none)"} not declared (${Object.keys(declared.content).join(", ")})`,
      ];
    }
    if (!type.includes("json")) return [];
    const validate = this.validator(ref, answer.status, type);
    if (validate(answer.json)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
    return [`${where}: the body does not match the declared schema: ${errors.join("; ")}`];
  }

  private validator(ref: OperationRef, status: number, type: string): ValidateFunction {
    const key = `${ref.name} ${status} ${type}`;
    let v = this.validators.get(key);
    if (!v) {
      const r = ref.op.responses[String(status)] ?? ref.op.responses.default;
      const media = `content/${pointerPart(type)}/schema`;
      const own = ref.op.responses[String(status)] ? String(status) : "default";
      const pointer = r?.$ref
        ? `${r.$ref}/${media}`
        : `#/paths/${pointerPart(ref.path)}/${ref.method.toLowerCase()}/responses/${own}/${media}`;
      v = this.ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      this.validators.set(key, v);
    }
    return v;
  }
}

const DOC_ID = "http://localhost/openapi.json";
const pointerPart = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** The example of an operation's JSON body (the body schema's first example), if it has one. */
export const exampleOf = (op: Operation): unknown => op.requestBody?.content["application/json"]?.example;
