import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { readBody } from "./read-body";

// A small stand-in for Google's OAuth 2.0 (web server flow) and the Drive API v3 in tests. It
// speaks what lib/integrations/google-drive.ts calls, as Google does:
// - GET /o/oauth2/v2/auth plays a builder who allows access: it checks the client, the scope and
//   offline access, and redirects back with a code (and the state);
// - POST /token (form-encoded) exchanges a code (checking the client secret, the redirect URI and
//   the PKCE verifier) or a refresh token; an expired or revoked grant is `invalid_grant`;
// - POST /revoke ends a grant;
// - GET /drive/v3/about, /drive/v3/files (the `q` subset we send: trashed, mimeType, name
//   contains; paginated), /drive/v3/files/{id} (metadata, or alt=media for stored files) and
//   /drive/v3/files/{id}/export, with Google's error objects.
// Access tokens can be expired on demand (then 401, as Google answers an expired token).

type DriveFile = {
  id: string;
  name: string;
  mimeType: string;
  trashed: boolean;
  content: () => Promise<Uint8Array> | Uint8Array;
};

export type GoogleDriveServer = {
  /** The base for GOOGLE_DRIVE_API_URL; GOOGLE_OAUTH_URL and GOOGLE_TOKEN_URL are under it. */
  url: string;
  clientId: string;
  clientSecret: string;
  fixtures: {
    docId: string;
    docWord: string;
    sheetId: string;
    slidesId: string;
    slidesWord: string;
    pdfId: string;
    pdfWord: string;
    imageId: string;
  };
  /** Every access token issued so far is expired: the API answers 401 until a refresh. */
  expireAccessTokens(): void;
  /** Access removed in the Google account's settings: tokens and refresh tokens refused. */
  revokeAll(): void;
  /** The next consent is refused by the builder (redirect with error=access_denied). */
  denyNext(): void;
  setDocText(text: string): void;
  deleteFile(id: string): void;
  /** How many times a refresh token was exchanged. */
  refreshCount(): number;
  /** Refresh tokens ended through POST /revoke. */
  revokedTokens: string[];
  close(): Promise<void>;
};

const utf8 = (s: string) => new TextEncoder().encode(s);

async function pdfWith(line: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(line, { x: 72, y: 720, size: 12, font });
  return doc.save();
}

export async function startGoogleDriveServer(opts: { pageSize?: number } = {}): Promise<GoogleDriveServer> {
  const clientId = "drive-test-client.apps.googleusercontent.com";
  const clientSecret = "drive-test-secret";
  const pageSize = opts.pageSize ?? 2;
  const codes = new Map<string, { redirectUri: string; challenge: string | null }>();
  /** refresh token -> live */
  const grants = new Map<string, boolean>();
  /** access token -> its grant's refresh token */
  const accessTokens = new Map<string, string>();
  let deny = false;
  let refreshes = 0;
  const revokedTokens: string[] = [];

  const id = () => crypto.randomBytes(12).toString("base64url");
  const fixtures = {
    docId: id(),
    docWord: "zebra-lantern",
    sheetId: id(),
    slidesId: id(),
    slidesWord: "marmalade-orbit",
    pdfId: id(),
    pdfWord: "cobalt-heron",
    imageId: id(),
  };
  let docText = `Refund policy\r\nRefunds are accepted within 30 days. Code word: ${fixtures.docWord}.\r\n`;
  const pdf = await pdfWith(`Employee handbook, chapter one: ${fixtures.pdfWord}`);
  const files: DriveFile[] = [
    {
      id: fixtures.docId,
      name: "Refund Policy",
      mimeType: "application/vnd.google-apps.document",
      trashed: false,
      content: () => utf8(docText),
    },
    {
      id: fixtures.sheetId,
      name: "Price List",
      mimeType: "application/vnd.google-apps.spreadsheet",
      trashed: false,
      content: () => utf8("Product,Price,Colour\r\nTeapot,25,Blue\r\nKettle,40,Red\r\nMug,8,Blue\r\n"),
    },
    {
      id: fixtures.slidesId,
      name: "Sales Deck",
      mimeType: "application/vnd.google-apps.presentation",
      trashed: false,
      content: () => utf8(`Quarterly goals\n\nGrow by ${fixtures.slidesWord}.\n`),
    },
    {
      id: fixtures.pdfId,
      name: "Handbook.pdf",
      mimeType: "application/pdf",
      trashed: false,
      content: () => pdf,
    },
    {
      id: fixtures.imageId,
      name: "Team photo.png",
      mimeType: "image/png",
      trashed: false,
      content: () => new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    },
    {
      id: id(),
      name: "Old Refund Policy",
      mimeType: "application/vnd.google-apps.document",
      trashed: true,
      content: () => utf8("old"),
    },
  ];
  const EXPORTS: Record<string, string[]> = {
    "application/vnd.google-apps.document": ["text/plain", "text/html", "application/pdf"],
    "application/vnd.google-apps.spreadsheet": ["text/csv", "application/pdf"],
    "application/vnd.google-apps.presentation": ["text/plain", "application/pdf"],
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
      res.end(JSON.stringify(body));
    };
    // Google API errors: { error: { code, message, errors: [{ reason }], status } }
    const apiError = (status: number, reason: string, message: string, statusName: string) =>
      send(status, {
        error: { code: status, message, errors: [{ message, domain: "global", reason }], status: statusName },
      });
    try {
      if (url.pathname === "/o/oauth2/v2/auth" && req.method === "GET") {
        const p = url.searchParams;
        if (
          p.get("client_id") !== clientId ||
          p.get("response_type") !== "code" ||
          !(p.get("scope") ?? "").split(" ").includes("https://www.googleapis.com/auth/drive.readonly") ||
          p.get("access_type") !== "offline"
        )
          return send(400, { error: "invalid_request" });
        const back = new URL(p.get("redirect_uri") ?? "");
        if (deny) {
          deny = false;
          back.searchParams.set("error", "access_denied");
        } else {
          const code = `4/${id()}`;
          codes.set(code, { redirectUri: p.get("redirect_uri")!, challenge: p.get("code_challenge") });
          back.searchParams.set("code", code);
          back.searchParams.set("scope", p.get("scope")!);
        }
        if (p.get("state")) back.searchParams.set("state", p.get("state")!);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const form = new URLSearchParams(await readBody(req));
        if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret)
          return send(401, { error: "invalid_client", error_description: "The OAuth client was not found." });
        const grantType = form.get("grant_type");
        if (grantType === "authorization_code") {
          const code = form.get("code") ?? "";
          const grant = codes.get(code);
          codes.delete(code);
          if (!grant || grant.redirectUri !== form.get("redirect_uri"))
            return send(400, { error: "invalid_grant", error_description: "Bad Request" });
          if (grant.challenge) {
            const hashed = crypto
              .createHash("sha256")
              .update(form.get("code_verifier") ?? "")
              .digest("base64url");
            if (hashed !== grant.challenge)
              return send(400, { error: "invalid_grant", error_description: "Invalid code verifier." });
          }
          const refreshToken = `1//${id()}`;
          grants.set(refreshToken, true);
          const accessToken = `ya29.${id()}`;
          accessTokens.set(accessToken, refreshToken);
          return send(200, {
            access_token: accessToken,
            expires_in: 3599,
            refresh_token: refreshToken,
            scope: "https://www.googleapis.com/auth/drive.readonly",
            token_type: "Bearer",
          });
        }
        if (grantType === "refresh_token") {
          const refreshToken = form.get("refresh_token") ?? "";
          if (!grants.get(refreshToken))
            return send(400, {
              error: "invalid_grant",
              error_description: "Token has been expired or revoked.",
            });
          refreshes++;
          const accessToken = `ya29.${id()}`;
          accessTokens.set(accessToken, refreshToken);
          return send(200, {
            access_token: accessToken,
            expires_in: 3599,
            scope: "https://www.googleapis.com/auth/drive.readonly",
            token_type: "Bearer",
          });
        }
        return send(400, { error: "unsupported_grant_type" });
      }
      if (url.pathname === "/revoke" && req.method === "POST") {
        const token = new URLSearchParams(await readBody(req)).get("token") ?? "";
        const refreshToken = grants.has(token) ? token : accessTokens.get(token);
        if (!refreshToken) return send(400, { error: "invalid_token" });
        grants.set(refreshToken, false);
        revokedTokens.push(refreshToken);
        return send(200, {});
      }

      // The Drive API: a live access token on every call.
      const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
      const grant = accessTokens.get(token);
      if (!grant || !grants.get(grant))
        return apiError(
          401,
          "authError",
          "Request had invalid authentication credentials.",
          "UNAUTHENTICATED",
        );

      if (url.pathname === "/drive/v3/about" && req.method === "GET") {
        return send(200, { user: { displayName: "Drive Tester", emailAddress: "drive.tester@example.com" } });
      }
      if (url.pathname === "/drive/v3/files" && req.method === "GET") {
        const filter = parseQuery(url.searchParams.get("q") ?? "");
        if (!filter) return apiError(400, "invalid", "Invalid Value", "INVALID_ARGUMENT");
        const found = files.filter(
          (f) =>
            (filter.trashed === undefined || f.trashed === filter.trashed) &&
            (!filter.mimeTypes || filter.mimeTypes.includes(f.mimeType)) &&
            (!filter.nameContains || f.name.toLowerCase().includes(filter.nameContains.toLowerCase())),
        );
        const start = Number(url.searchParams.get("pageToken") ?? 0);
        const size = Math.min(Number(url.searchParams.get("pageSize") ?? 100), pageSize);
        const end = start + size;
        return send(200, {
          files: found.slice(start, end).map((f) => ({
            id: f.id,
            name: f.name,
            mimeType: f.mimeType,
            webViewLink: `https://drive.google.com/file/d/${f.id}/view`,
          })),
          ...(end < found.length ? { nextPageToken: String(end) } : {}),
        });
      }
      const m = url.pathname.match(/^\/drive\/v3\/files\/([^/]+)(\/export)?$/);
      if (m && req.method === "GET") {
        const file = files.find((f) => f.id === m[1]);
        if (!file) return apiError(404, "notFound", `File not found: ${m[1]}.`, "NOT_FOUND");
        if (m[2]) {
          const mime = url.searchParams.get("mimeType") ?? "";
          if (!EXPORTS[file.mimeType]?.includes(mime))
            return apiError(
              400,
              "badRequest",
              "The requested conversion is not supported.",
              "INVALID_ARGUMENT",
            );
          const body = await file.content();
          res.writeHead(200, { "content-type": `${mime}; charset=utf-8`, "content-length": body.byteLength });
          return res.end(body);
        }
        if (url.searchParams.get("alt") === "media") {
          if (file.mimeType.startsWith("application/vnd.google-apps."))
            return apiError(
              403,
              "fileNotDownloadable",
              "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
              "PERMISSION_DENIED",
            );
          const body = await file.content();
          res.writeHead(200, { "content-type": file.mimeType, "content-length": body.byteLength });
          return res.end(body);
        }
        return send(200, {
          kind: "drive#file",
          id: file.id,
          name: file.name,
          mimeType: file.mimeType,
          trashed: file.trashed,
        });
      }
      apiError(404, "notFound", "Not Found", "NOT_FOUND");
    } catch (err) {
      apiError(500, "backendError", String(err), "INTERNAL");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    clientId,
    clientSecret,
    fixtures,
    expireAccessTokens: () => accessTokens.clear(),
    revokeAll: () => {
      for (const t of grants.keys()) grants.set(t, false);
    },
    denyNext: () => {
      deny = true;
    },
    setDocText: (text) => {
      docText = text;
    },
    deleteFile: (fileId) => {
      const i = files.findIndex((f) => f.id === fileId);
      if (i >= 0) files.splice(i, 1);
    },
    refreshCount: () => refreshes,
    revokedTokens,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The environment that points the app at this server. */
export function googleDriveServerEnv(s: GoogleDriveServer): Record<string, string> {
  return {
    GOOGLE_DRIVE_CLIENT_ID: s.clientId,
    GOOGLE_DRIVE_CLIENT_SECRET: s.clientSecret,
    GOOGLE_OAUTH_URL: `${s.url}/o/oauth2/v2/auth`,
    GOOGLE_TOKEN_URL: `${s.url}/token`,
    GOOGLE_DRIVE_API_URL: s.url,
  };
}

type Filter = { trashed?: boolean; mimeTypes?: string[]; nameContains?: string };

/**
 * The part of Drive's query language we send: `trashed = false`, `(mimeType = '...' or ...)` and
 * `name contains '...'` joined by `and`. Anything else is refused, as Drive refuses a bad query.
 */
function parseQuery(q: string): Filter | null {
  const filter: Filter = {};
  const str = String.raw`'((?:\\.|[^'\\])*)'`;
  const unquote = (s: string) => s.replace(/\\(.)/g, "$1");
  let rest = q.replace(/trashed\s*=\s*(true|false)/g, (_all, v: string) => {
    filter.trashed = v === "true";
    return "";
  });
  rest = rest.replace(new RegExp(String.raw`name\s+contains\s+${str}`, "g"), (_all, v: string) => {
    filter.nameContains = unquote(v);
    return "";
  });
  rest = rest.replace(new RegExp(String.raw`mimeType\s*=\s*${str}`, "g"), (_all, v: string) => {
    filter.mimeTypes = [...(filter.mimeTypes ?? []), unquote(v)];
    return "";
  });
  return /^[\s()]*((and|or)[\s()]*)*$/.test(rest) ? filter : null;
}
