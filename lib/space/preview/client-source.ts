// The data client a space app's own code imports as "@app/client": its entities' records, its
// signed-in end user, and the errors of both. Kept as source text like the runtime
// (runtime-source.ts): the preview's build compiles it into every bundle that imports it, and its
// text is part of every bundle's cache key (build.ts).
//
// How it reaches the data: the app runs in a sandboxed frame of no origin, holding no cookie of
// ours, so it asks the page around it (window.parent, by postMessage) for a token scoped to this
// app and its viewer, and calls the data API with it as a bearer, never with credentials. The
// parent's answer is trusted only from window.parent (the request is repeated until it answers,
// as the page may not listen yet when the frame starts); the token is kept until it expires and
// asked for once more when the server says it has (401 APP_TOKEN_EXPIRED), the call then tried
// once again. Where to call and which app come from the document's config global (document.ts).

import { CONFIG_GLOBAL } from "./runtime-source";
import { RUNTIME_MESSAGE } from "./types";

/** The one name app code imports the data client by. */
export const CLIENT_SPECIFIER = "@app/client";

/** How long the client waits for the parent's token before the call fails. */
export const CLIENT_TOKEN_TIMEOUT_MS = 10_000;

/**
 * The data client's error, shared with the functions' client (lib/functions/client-source.ts): the
 * server's status, code, message and failing field, as `catch (err)` sees them on both sides.
 */
export const CLIENT_ERROR_SOURCE = `
/** An error of the data client: the server's status, code, message and failing field (or null). */
export class AppClientError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.name = "AppClientError";
    this.status = status;
    this.code = code;
    this.field = field == null ? null : field;
  }
}
`;

/**
 * `entities`, shared with the functions' client: each entity's list/get/create/update/delete/
 * bulkCreate over a \`request(method, path, payload)\` the including source defines, where path is
 * the data API's below the app ("/data/Task/<id>"), and which answers the JSON or throws an
 * AppClientError.
 */
export const ENTITIES_SOURCE = `
const ENTITY_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
// Names a caller may read off any object without meaning an entity: awaiting the proxy, JSON.
const NOT_ENTITIES = new Set(["then", "toJSON", "constructor", "prototype"]);

function query(params) {
  const parts = [];
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined || value === null || value === "") continue;
    parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(String(value)));
  }
  return parts.length ? "?" + parts.join("&") : "";
}

function entityOf(name) {
  const at = "/data/" + encodeURIComponent(name);
  const one = (id) => at + "/" + encodeURIComponent(String(id));
  return Object.freeze({
    /** Records newest first (or by sort), at most limit, only those the viewer may read. */
    async list(options) {
      const o = options || {};
      const filter = o.filter && typeof o.filter === "object" && Object.keys(o.filter).length ? JSON.stringify(o.filter) : undefined;
      const answer = await request("GET", at + query({ sort: o.sort, limit: o.limit, cursor: o.cursor, filter }));
      const records = Array.isArray(answer && answer.records) ? answer.records : [];
      // The next page's cursor rides on the array: list({ cursor: page.nextCursor }).
      Object.defineProperty(records, "nextCursor", { value: (answer && answer.nextCursor) || null, enumerable: false });
      return records;
    },
    get(id) {
      return request("GET", one(id));
    },
    create(data) {
      return request("POST", at, data || {});
    },
    /** options.ifUpdatedAt: refused (409 RECORD_CHANGED) when the record changed since. */
    update(id, patch, options) {
      const since = options && options.ifUpdatedAt ? query({ ifUpdatedAt: options.ifUpdatedAt }) : "";
      return request("PATCH", one(id) + since, patch || {});
    },
    async delete(id) {
      return request("DELETE", one(id));
    },
    async bulkCreate(rows) {
      const answer = await request("POST", at + "/bulk", { records: Array.isArray(rows) ? rows : [] });
      return Array.isArray(answer && answer.records) ? answer.records : [];
    },
  });
}

const known = new Map();

/** entities.Task.list(...): one client per entity name, made on first use. */
export const entities = new Proxy(Object.create(null), {
  get(_, name) {
    if (typeof name !== "string" || NOT_ENTITIES.has(name) || !ENTITY_NAME.test(name)) return undefined;
    if (!known.has(name)) known.set(name, entityOf(name));
    return known.get(name);
  },
  has(_, name) {
    return typeof name === "string" && !NOT_ENTITIES.has(name) && ENTITY_NAME.test(name);
  },
  set() {
    return false;
  },
});
`;

export const APP_CLIENT_SOURCE = `
const config = globalThis.${CONFIG_GLOBAL} || {};
const text = config.text || {};
const runtime = config.runtime || {};
const TOKEN_TIMEOUT_MS = ${CLIENT_TOKEN_TIMEOUT_MS};
const RESEND_FIRST_MS = 100;
const RESEND_MAX_MS = 1000;
// A token this close to its end is asked for again rather than sent to be refused.
const EXPIRY_MARGIN_MS = 30000;

${CLIENT_ERROR_SOURCE}
function post(message) {
  try {
    window.parent.postMessage(message, "*");
  } catch (_) {
    // No parent to ask: the calls go out anonymous or time out.
  }
}

// ---- the token, from the page around the frame ----

let session = null; // { token, expiresAt (ms or null), user }
let asking = null;

function fresh(s) {
  return s !== null && (s.token === null || s.expiresAt === null || s.expiresAt - EXPIRY_MARGIN_MS > Date.now());
}

function askParent() {
  if (asking) return asking;
  // A document opened on its own has no page around it: it is anonymous.
  if (window.parent === window) return Promise.resolve({ token: null, expiresAt: null, user: null });
  asking = new Promise((resolve, reject) => {
    let resendTimer = null;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(resendTimer);
      window.removeEventListener("message", onMessage);
      asking = null;
    };
    const timer = setTimeout(() => {
      done();
      reject(new AppClientError(0, "APP_TOKEN_TIMEOUT", text.clientTokenTimeout || "No token", null));
    }, TOKEN_TIMEOUT_MS);
    // The frame may run before the page around it listens (a server-rendered page still
    // hydrating): the request is sent again, less and less often, until it is answered.
    let every = RESEND_FIRST_MS;
    const resend = () => {
      resendTimer = setTimeout(() => {
        post({ type: "${RUNTIME_MESSAGE.tokenRequest}" });
        every = Math.min(every * 2, RESEND_MAX_MS);
        resend();
      }, every);
    };
    function onMessage(event) {
      if (event.source !== window.parent) return;
      const data = event.data;
      if (!data || typeof data !== "object" || data.type !== "${RUNTIME_MESSAGE.token}") return;
      done();
      const failed = data.error && typeof data.error === "object" ? data.error : null;
      if (failed) {
        reject(
          new AppClientError(
            typeof failed.status === "number" ? failed.status : 0,
            typeof failed.code === "string" ? failed.code : "APP_TOKEN_FAILED",
            typeof failed.message === "string" ? failed.message : text.clientRequestFailed || "",
            null,
          ),
        );
        return;
      }
      const token = typeof data.token === "string" && data.token ? data.token : null;
      const expiresAt = token && typeof data.expiresAt === "string" ? Date.parse(data.expiresAt) : NaN;
      resolve({
        token,
        expiresAt: Number.isFinite(expiresAt) ? expiresAt : null,
        user: token && data.user && typeof data.user === "object" ? data.user : null,
      });
    }
    window.addEventListener("message", onMessage);
    post({ type: "${RUNTIME_MESSAGE.tokenRequest}" });
    resend();
  });
  return asking;
}

async function currentSession(renew) {
  if (!renew && fresh(session)) return session;
  const got = await askParent();
  session = got;
  return got;
}

// ---- the transport ----

function base() {
  return String(runtime.apiBase || "") + "/api/apps/" + encodeURIComponent(String(runtime.appId || ""));
}

async function send(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  try {
    return await fetch(base() + path, { method, headers, body, credentials: "omit", cache: "no-store" });
  } catch (_) {
    throw new AppClientError(0, "NETWORK_ERROR", text.clientNetworkError || "Network error", null);
  }
}

async function errorOf(res) {
  let data = null;
  try {
    data = await res.json();
  } catch (_) {}
  const e = data && typeof data === "object" && data.error && typeof data.error === "object" ? data.error : {};
  return new AppClientError(
    res.status,
    typeof e.code === "string" ? e.code : "HTTP_" + res.status,
    typeof e.message === "string" ? e.message : text.clientRequestFailed || "Request failed",
    typeof e.field === "string" ? e.field : null,
  );
}

async function request(method, path, payload) {
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  let s = await currentSession(false);
  let res = await send(method, path, body, s.token);
  if (res.status === 401 && s.token) {
    const err = await errorOf(res);
    if (err.code !== "APP_TOKEN_EXPIRED") throw err;
    s = await currentSession(true);
    res = await send(method, path, body, s.token);
  }
  if (!res.ok) throw await errorOf(res);
  try {
    return await res.json();
  } catch (_) {
    throw new AppClientError(res.status, "BAD_RESPONSE", text.clientRequestFailed || "Request failed", null);
  }
}

${ENTITIES_SOURCE}
// ---- the end user ----

export const auth = Object.freeze({
  /** The signed-in end user (with their extra User fields), or null when nobody is signed in. */
  async me() {
    const s = await currentSession(false);
    if (!s.token) return null;
    try {
      return await request("GET", "/runtime/me");
    } catch (err) {
      if (err instanceof AppClientError && err.status === 401) return null;
      throw err;
    }
  },
  /** Changes the signed-in end user's own fields that the app's User entity declares (not their role). */
  updateMe(patch) {
    return request("PATCH", "/runtime/me", patch || {});
  },
  /** Asks the page around the app for the app's sign-in page. */
  signIn() {
    post({ type: "${RUNTIME_MESSAGE.signIn}" });
  },
  /** Asks the page around the app to sign the end user out. */
  signOut() {
    post({ type: "${RUNTIME_MESSAGE.signOut}" });
  },
});
`;
