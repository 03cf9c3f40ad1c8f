import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body";

// A small stand-in for Notion's public API in tests (https://developers.notion.com, version
// 2022-06-28). It speaks what lib/integrations/notion.ts calls, as Notion does: OAuth for a
// public integration (the consent page plays a builder who allows access and redirects back
// with a code; the token endpoint takes HTTP Basic client credentials and a JSON body), and,
// with a Bearer token and the Notion-Version header, POST /v1/search, GET /v1/pages/{id},
// GET /v1/blocks/{id}/children, GET /v1/databases/{id} and POST /v1/databases/{id}/query, with
// cursor pagination and Notion's error objects. Lists come a few results a page (Notion may
// answer fewer than page_size), so callers must follow next_cursor.

type Json = Record<string, unknown>;
type Block = { id: string; type: string; has_children: boolean; [type: string]: unknown };

export type NotionServer = {
  /** The API base for NOTION_API_URL */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The fixture documents' ids and the words only they contain. */
  fixtures: {
    pageId: string;
    pageWord: string;
    nestedWord: string;
    databaseId: string;
    databaseWord: string;
  };
  /** Access removed in Notion's settings: every token issued so far is refused (401). */
  revokeAll(): void;
  /** The next consent is refused by the builder (redirect with error=access_denied). */
  denyNext(): void;
  /** Replaces the text of the page's first paragraph (a document edited in Notion). */
  editPage(text: string): void;
  /** The page is deleted in Notion: 404 from then on. */
  deletePage(): void;
  /** The next API call answers 503 service_unavailable, as Notion does when it is overloaded. */
  failNextCall(): void;
  /** Every API call as "METHOD /path", for assertions. */
  calls: string[];
  close(): Promise<void>;
};

const rich = (text: string) => [
  { type: "text", text: { content: text, link: null }, annotations: {}, plain_text: text, href: null },
];
const uuid = () => crypto.randomUUID();

function block(type: string, data: Json, children: Block[] = []): Block & { children: Block[] } {
  return { object: "block", id: uuid(), type, has_children: children.length > 0, [type]: data, children };
}

export async function startNotionServer(opts: { pageSize?: number } = {}): Promise<NotionServer> {
  const clientId = "notion-test-client";
  const clientSecret = "notion-test-secret";
  const pageSize = opts.pageSize ?? 2;
  const codes = new Map<string, { redirectUri: string }>();
  const tokens = new Set<string>();
  let deny = false;
  let failNext = false;
  const calls: string[] = [];

  const fixtures = {
    pageId: uuid(),
    pageWord: "pineapple-quokka",
    nestedWord: "sandcastle",
    databaseId: uuid(),
    databaseWord: "Walnut",
  };

  // The page "Onboarding Guide": headings, paragraphs, a list item and a toggle with children,
  // a sub-page (its own item, not read as part of this one).
  const pageBlocks = [
    block("heading_1", { rich_text: rich("Welcome aboard") }),
    block("paragraph", { rich_text: rich(`The secret handshake is ${fixtures.pageWord}.`) }),
    block("bulleted_list_item", { rich_text: rich("Tools") }, [
      block("paragraph", { rich_text: rich("Laptop and badge") }),
      block("to_do", { rich_text: rich("Sign the NDA"), checked: true }),
    ]),
    block("toggle", { rich_text: rich("FAQ") }, [
      block("paragraph", { rich_text: rich(`Parking is free on Fridays near the ${fixtures.nestedWord}.`) }),
    ]),
    block("child_page", { title: "Sub page" }, [block("paragraph", { rich_text: rich("never read") })]),
    block("divider", {}),
    block("paragraph", { rich_text: rich("Office opens at 9 am.") }),
  ];
  const blocksById = new Map<string, (Block & { children: Block[] })[]>();
  const index = (id: string, list: (Block & { children: Block[] })[]) => {
    blocksById.set(id, list);
    for (const b of list) if (b.children.length) index(b.id, b.children as (Block & { children: Block[] })[]);
  };
  index(fixtures.pageId, pageBlocks);

  const time = "2024-05-01T10:00:00.000Z";
  let pageDeleted = false;
  const page = (): Json => ({
    object: "page",
    id: fixtures.pageId,
    created_time: time,
    last_edited_time: time,
    archived: false,
    in_trash: false,
    parent: { type: "workspace", workspace: true },
    url: `https://www.notion.so/Onboarding-Guide-${fixtures.pageId.replaceAll("-", "")}`,
    properties: { title: { id: "title", type: "title", title: rich("Onboarding Guide") } },
  });
  const database = (): Json => ({
    object: "database",
    id: fixtures.databaseId,
    created_time: time,
    last_edited_time: time,
    archived: false,
    in_trash: false,
    title: rich("Product Catalog"),
    url: `https://www.notion.so/${fixtures.databaseId.replaceAll("-", "")}`,
    properties: {},
  });
  const row = (name: string, price: number, category: string, inStock: boolean): Json => ({
    object: "page",
    id: uuid(),
    archived: false,
    in_trash: false,
    parent: { type: "database_id", database_id: fixtures.databaseId },
    properties: {
      Name: { id: "title", type: "title", title: rich(name) },
      Price: { id: "p", type: "number", number: price },
      Category: { id: "c", type: "select", select: { id: "s", name: category, color: "blue" } },
      "In stock": { id: "i", type: "checkbox", checkbox: inStock },
      Tags: { id: "t", type: "multi_select", multi_select: [{ name: "new" }, { name: "sale" }] },
    },
  });
  const rows = [
    row(`${fixtures.databaseWord} Desk`, 499, "Furniture", true),
    row("Quokka Lamp", 89, "Lighting", false),
    row("Fern Shelf", 129, "Furniture", true),
  ];

  /** Notion's cursor pagination over a list. */
  const paginate = (list: unknown[], cursor: string | null | undefined, asked: number | undefined) => {
    const start = cursor ? Number(cursor) : 0;
    const size = Math.min(asked ?? 100, pageSize);
    const end = start + size;
    return {
      object: "list",
      results: list.slice(start, end),
      next_cursor: end < list.length ? String(end) : null,
      has_more: end < list.length,
      type: "page_or_database",
    };
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: string, message: string) =>
      send(status, { object: "error", status, code, message, request_id: uuid() });
    try {
      if (url.pathname === "/v1/oauth/authorize" && req.method === "GET") {
        const p = url.searchParams;
        if (p.get("client_id") !== clientId || p.get("response_type") !== "code" || p.get("owner") !== "user")
          return error(400, "invalid_request", "Invalid OAuth request.");
        const redirectUri = p.get("redirect_uri") ?? "";
        const back = new URL(redirectUri);
        if (deny) {
          deny = false;
          back.searchParams.set("error", "access_denied");
        } else {
          const code = uuid();
          codes.set(code, { redirectUri });
          back.searchParams.set("code", code);
        }
        if (p.get("state")) back.searchParams.set("state", p.get("state")!);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (url.pathname === "/v1/oauth/token" && req.method === "POST") {
        const basic = Buffer.from(
          (req.headers.authorization ?? "").replace(/^Basic /, ""),
          "base64",
        ).toString();
        if (basic !== `${clientId}:${clientSecret}`) return error(401, "invalid_client", "Invalid client.");
        const body = JSON.parse(await readBody(req)) as Json;
        if (body.grant_type !== "authorization_code")
          return error(400, "unsupported_grant_type", "Unsupported.");
        const grant = codes.get(String(body.code));
        codes.delete(String(body.code));
        if (!grant || grant.redirectUri !== body.redirect_uri)
          return error(400, "invalid_grant", "Invalid code.");
        const token = `ntn_${crypto.randomBytes(16).toString("hex")}`;
        tokens.add(token);
        return send(200, {
          access_token: token,
          token_type: "bearer",
          bot_id: uuid(),
          workspace_name: "Acme Workspace",
          workspace_icon: null,
          workspace_id: uuid(),
          owner: { type: "user", user: { object: "user", id: uuid() } },
          duplicated_template_id: null,
          request_id: uuid(),
        });
      }

      // The API: a valid token, and the version header, on every call.
      calls.push(`${req.method} ${url.pathname}`);
      const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
      if (!tokens.has(token)) return error(401, "unauthorized", "API token is invalid.");
      if (failNext) {
        failNext = false;
        return error(503, "service_unavailable", "Notion is unavailable, please try again later.");
      }
      if (req.headers["notion-version"] !== "2022-06-28")
        return error(400, "missing_version", "Notion-Version header failed validation.");

      if (url.pathname === "/v1/search" && req.method === "POST") {
        const body = JSON.parse((await readBody(req)) || "{}") as {
          query?: string;
          start_cursor?: string;
          page_size?: number;
        };
        if ((body.page_size ?? 0) > 100) return error(400, "validation_error", "page_size must be ≤ 100.");
        const all = [...(pageDeleted ? [] : [page()]), database()];
        const q = (body.query ?? "").toLowerCase();
        const titleOf = (o: Json) => (o.object === "database" ? "Product Catalog" : "Onboarding Guide");
        const found = all.filter((o) => !q || titleOf(o).toLowerCase().includes(q));
        return send(200, paginate(found, body.start_cursor, body.page_size));
      }
      let m = url.pathname.match(/^\/v1\/pages\/([^/]+)$/);
      if (m && req.method === "GET") {
        if (m[1] !== fixtures.pageId || pageDeleted)
          return error(404, "object_not_found", `Could not find page with ID: ${m[1]}.`);
        return send(200, page());
      }
      m = url.pathname.match(/^\/v1\/blocks\/([^/]+)\/children$/);
      if (m && req.method === "GET") {
        const list = blocksById.get(m[1]!);
        if (!list || (m[1] === fixtures.pageId && pageDeleted))
          return error(404, "object_not_found", `Could not find block with ID: ${m[1]}.`);
        const shown = list.map(({ children: _c, ...b }) => b);
        const pageSizeAsked = Number(url.searchParams.get("page_size") ?? 100);
        return send(200, {
          ...paginate(shown, url.searchParams.get("start_cursor"), pageSizeAsked),
          type: "block",
        });
      }
      m = url.pathname.match(/^\/v1\/databases\/([^/]+)$/);
      if (m && req.method === "GET") {
        if (m[1] !== fixtures.databaseId)
          return error(404, "object_not_found", `Could not find database with ID: ${m[1]}.`);
        return send(200, database());
      }
      m = url.pathname.match(/^\/v1\/databases\/([^/]+)\/query$/);
      if (m && req.method === "POST") {
        if (m[1] !== fixtures.databaseId)
          return error(404, "object_not_found", `Could not find database with ID: ${m[1]}.`);
        const body = JSON.parse((await readBody(req)) || "{}") as {
          start_cursor?: string;
          page_size?: number;
        };
        return send(200, paginate(rows, body.start_cursor, body.page_size));
      }
      error(400, "invalid_request_url", "Invalid request URL.");
    } catch (err) {
      error(500, "internal_server_error", String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    clientId,
    clientSecret,
    fixtures,
    calls,
    revokeAll: () => tokens.clear(),
    denyNext: () => {
      deny = true;
    },
    editPage: (text) => {
      const first = pageBlocks[1]!;
      first.paragraph = { rich_text: rich(text) };
    },
    deletePage: () => {
      pageDeleted = true;
    },
    failNextCall: () => {
      failNext = true;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The environment that points the app at this server. */
export function notionServerEnv(s: NotionServer): Record<string, string> {
  return { NOTION_CLIENT_ID: s.clientId, NOTION_CLIENT_SECRET: s.clientSecret, NOTION_API_URL: s.url };
}
