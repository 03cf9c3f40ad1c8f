import "server-only";
import { env } from "@/lib/env";
import { callbackUrl, connectorConfig } from "./config";
import { ProviderFileTooLargeError, providerJson } from "./http";
import type { ConnectorFile, OAuthTokens } from "./types";

// Notion's public API (https://developers.notion.com), version 2022-06-28: OAuth for a public
// integration, search for the picker, block children for a page's text, database queries for
// a database's rows. NOTION_API_URL points it at a local server in tests.

const NOTION_VERSION = "2022-06-28";
/** Nested blocks deeper than this are not read: a page is not a tree of unbounded depth. */
const MAX_DEPTH = 8;
/** Results the picker shows for one search. */
const LIST_LIMIT = 100;

const api = (path: string) => new URL(path, env().NOTION_API_URL);

function basicAuth(): string {
  const { clientId, clientSecret } = connectorConfig("notion");
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
}

export function notionAuthorizeUrl(state: string): string {
  const url = api("/v1/oauth/authorize");
  url.searchParams.set("client_id", connectorConfig("notion").clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("owner", "user");
  url.searchParams.set("redirect_uri", callbackUrl("notion"));
  url.searchParams.set("state", state);
  return url.toString();
}

type NotionTokenAnswer = {
  access_token: string;
  refresh_token?: string | null;
  expires_in?: number | null;
  workspace_name?: string | null;
};

function tokensOf(answer: NotionTokenAnswer): OAuthTokens {
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    expiresAt: answer.expires_in ? new Date(Date.now() + answer.expires_in * 1000) : null,
    accountName: answer.workspace_name ?? null,
  };
}

/** POST /v1/oauth/token: the code of the consent screen for the workspace's token. */
export async function notionExchangeCode(code: string): Promise<OAuthTokens> {
  const answer = await providerJson<NotionTokenAnswer>("notion", api("/v1/oauth/token"), {
    method: "POST",
    headers: { authorization: basicAuth(), "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: callbackUrl("notion") }),
  });
  return tokensOf(answer);
}

/** Notion's tokens have not expired so far; a token that does come with a refresh token is renewed. */
export async function notionRefresh(refreshToken: string): Promise<OAuthTokens> {
  const answer = await providerJson<NotionTokenAnswer>("notion", api("/v1/oauth/token"), {
    method: "POST",
    headers: { authorization: basicAuth(), "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "refresh_token", refresh_token: refreshToken }),
  });
  return tokensOf(answer);
}

function call<T>(token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return providerJson<T>("notion", api(path), {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      "notion-version": NOTION_VERSION,
      ...(init.body ? { "content-type": "application/json" } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
}

type RichText = { plain_text?: string };
type NotionList<T> = { results: T[]; has_more: boolean; next_cursor: string | null };
type NotionProperty = { type: string; [key: string]: unknown };
type NotionPage = {
  object: "page";
  id: string;
  url?: string;
  archived?: boolean;
  in_trash?: boolean;
  properties?: Record<string, NotionProperty>;
};
type NotionDatabase = {
  object: "database";
  id: string;
  url?: string;
  archived?: boolean;
  in_trash?: boolean;
  title?: RichText[];
};
type NotionBlock = { id: string; type: string; has_children?: boolean; [key: string]: unknown };

const plain = (texts: unknown) =>
  Array.isArray(texts) ? (texts as RichText[]).map((t) => t.plain_text ?? "").join("") : "";

function pageTitle(page: NotionPage): string {
  const title = Object.values(page.properties ?? {}).find((p) => p.type === "title");
  return plain(title?.title);
}

/** POST /v1/search: the pages and databases shared with the integration, matching `query`. */
export async function notionListFiles(token: string, query: string): Promise<ConnectorFile[]> {
  const files: ConnectorFile[] = [];
  let cursor: string | null = null;
  do {
    const page: NotionList<NotionPage | NotionDatabase> = await call(token, "/v1/search", {
      method: "POST",
      body: {
        ...(query ? { query } : {}),
        page_size: 100,
        ...(cursor ? { start_cursor: cursor } : {}),
        sort: { direction: "descending", timestamp: "last_edited_time" },
      },
    });
    for (const r of page.results) {
      if (r.archived || r.in_trash) continue;
      const isDb = r.object === "database";
      files.push({
        externalFileId: r.id,
        name: (isDb ? plain(r.title) : pageTitle(r as NotionPage)) || "Untitled",
        type: isDb ? "notion database" : "notion page",
        externalFileUrl: r.url ?? null,
      });
    }
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor && files.length < LIST_LIMIT);
  return files.slice(0, LIST_LIMIT);
}

/** Counts the characters read, and stops the read past the plan's cap. */
class TextBudget {
  private used = 0;
  constructor(private readonly max: number) {}
  add(text: string): string {
    this.used += text.length + 1;
    if (this.used > this.max) throw new ProviderFileTooLargeError();
    return text;
  }
}

/** A page's text: its title, its properties (a page of a database has some), then its blocks. */
export async function notionReadPage(token: string, pageId: string, maxChars: number): Promise<string> {
  const budget = new TextBudget(maxChars);
  const page = await call<NotionPage>(token, `/v1/pages/${encodeURIComponent(pageId)}`);
  if (page.archived || page.in_trash) throw new NotionGoneError();
  const lines: string[] = [];
  const title = pageTitle(page);
  if (title) lines.push(budget.add(title));
  for (const [name, prop] of Object.entries(page.properties ?? {})) {
    if (prop.type === "title") continue;
    const value = propertyText(prop);
    if (value) lines.push(budget.add(`${name}: ${value}`));
  }
  await readBlocks(token, pageId, 0, lines, budget);
  return lines.join("\n");
}

/** The trashed page or database of an item: the item can no longer be read. */
export class NotionGoneError extends Error {
  constructor() {
    super("archived");
    this.name = "NotionGoneError";
  }
}

// GET /v1/blocks/{id}/children, every page of it, and the children of blocks that have some.
async function readBlocks(
  token: string,
  blockId: string,
  depth: number,
  lines: string[],
  budget: TextBudget,
) {
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ page_size: "100", ...(cursor ? { start_cursor: cursor } : {}) });
    const list: NotionList<NotionBlock> = await call(
      token,
      `/v1/blocks/${encodeURIComponent(blockId)}/children?${query}`,
    );
    for (const block of list.results) {
      const text = blockText(block);
      if (text) lines.push(budget.add(`${"  ".repeat(depth)}${text}`));
      // A sub-page or sub-database is an item of its own, picked separately.
      const own = block.type === "child_page" || block.type === "child_database";
      if (block.has_children && !own && depth + 1 < MAX_DEPTH)
        await readBlocks(token, block.id, depth + 1, lines, budget);
    }
    cursor = list.has_more ? list.next_cursor : null;
  } while (cursor);
}

function blockText(block: NotionBlock): string {
  const data = (block[block.type] ?? {}) as Record<string, unknown>;
  const text = plain(data.rich_text);
  switch (block.type) {
    case "heading_1":
    case "heading_2":
    case "heading_3":
    case "paragraph":
    case "quote":
    case "callout":
    case "toggle":
    case "code":
      return text;
    case "bulleted_list_item":
      return `- ${text}`;
    case "numbered_list_item":
      return `1. ${text}`;
    case "to_do":
      return `[${data.checked ? "x" : " "}] ${text}`;
    case "table_row":
      return Array.isArray(data.cells) ? data.cells.map((c) => plain(c)).join(" | ") : "";
    case "child_page":
    case "child_database":
      return typeof data.title === "string" ? data.title : "";
    case "equation":
      return typeof data.expression === "string" ? data.expression : "";
    case "bookmark":
    case "embed":
    case "link_preview":
      return typeof data.url === "string" ? data.url : "";
    default:
      // Images, files, dividers and the like carry no text; their caption may.
      return plain(data.caption);
  }
}

/**
 * A database's rows (POST /v1/databases/{id}/query), each one line "Property: value; ..." for
 * the chunks, and a row item { Property: value } like a CSV's for the smart items filter.
 */
export async function notionReadDatabase(
  token: string,
  databaseId: string,
  maxChars: number,
): Promise<{ text: string; rows: Record<string, string>[] }> {
  const budget = new TextBudget(maxChars);
  const database = await call<NotionDatabase>(token, `/v1/databases/${encodeURIComponent(databaseId)}`);
  if (database.archived || database.in_trash) throw new NotionGoneError();
  const lines: string[] = [];
  const title = plain(database.title);
  if (title) lines.push(budget.add(title));
  const rows: Record<string, string>[] = [];
  let cursor: string | null = null;
  do {
    const list: NotionList<NotionPage> = await call(
      token,
      `/v1/databases/${encodeURIComponent(databaseId)}/query`,
      { method: "POST", body: { page_size: 100, ...(cursor ? { start_cursor: cursor } : {}) } },
    );
    for (const page of list.results) {
      if (page.archived || page.in_trash) continue;
      const row: Record<string, string> = {};
      const parts: string[] = [];
      for (const [name, prop] of Object.entries(page.properties ?? {})) {
        const value = propertyText(prop);
        row[name] = value;
        if (value) parts.push(`${name}: ${value}`);
      }
      if (parts.length === 0) continue;
      rows.push(row);
      lines.push(budget.add(parts.join("; ")));
    }
    cursor = list.has_more ? list.next_cursor : null;
  } while (cursor);
  return { text: lines.join("\n"), rows };
}

/** A property value as text, whatever its type. */
function propertyText(prop: NotionProperty): string {
  const value = prop[prop.type] as unknown;
  if (value === null || value === undefined) return "";
  switch (prop.type) {
    case "title":
    case "rich_text":
      return plain(value);
    case "number":
      return String(value);
    case "checkbox":
      return value ? "Yes" : "No";
    case "select":
    case "status":
      return (value as { name?: string }).name ?? "";
    case "multi_select":
      return (value as { name?: string }[]).map((o) => o.name ?? "").join(", ");
    case "date": {
      const d = value as { start?: string; end?: string | null };
      return d.end ? `${d.start} – ${d.end}` : (d.start ?? "");
    }
    case "people":
      return (value as { name?: string }[])
        .map((p) => p.name ?? "")
        .filter(Boolean)
        .join(", ");
    case "files":
      return (value as { name?: string }[]).map((f) => f.name ?? "").join(", ");
    case "url":
    case "email":
    case "phone_number":
    case "created_time":
    case "last_edited_time":
      return String(value);
    case "created_by":
    case "last_edited_by":
      return (value as { name?: string }).name ?? "";
    case "unique_id": {
      const u = value as { prefix?: string | null; number?: number };
      return u.prefix ? `${u.prefix}-${u.number}` : String(u.number ?? "");
    }
    case "formula": {
      const f = value as { type: string; [k: string]: unknown };
      return propertyText({ type: f.type, [f.type]: f[f.type] });
    }
    case "rollup": {
      const r = value as { type: string; array?: NotionProperty[]; [k: string]: unknown };
      if (r.type === "array") return (r.array ?? []).map(propertyText).filter(Boolean).join(", ");
      return propertyText({ type: r.type, [r.type]: r[r.type] });
    }
    // The values of formulas
    case "string":
      return String(value);
    case "boolean":
      return value ? "Yes" : "No";
    default:
      return "";
  }
}
