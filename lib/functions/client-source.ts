import { messages } from "@/lib/messages";
import { CLIENT_ERROR_SOURCE, ENTITIES_SOURCE } from "@/lib/space/preview/client-source";

/** The one import a function may make (bundle.ts resolves it to the source below). */
export const FUNCTION_CLIENT_SPECIFIER = "@app/client";

/** Where the harness puts the function's one way to its app's data (harness-source.ts). */
export const APP_DATA_GLOBAL = "function-runtime.app-data";

/**
 * The data client a function imports as "@app/client": the same `entities` (and AppClientError)
 * as the pages' client, but as the app's service role. It holds no token and names no app: it
 * hands each call to the harness's data door, which sends it to the egress gateway with the
 * process's own token on the process's own gateway port; the gateway knows the app from that door
 * alone (egress-gateway.ts, data-gateway.ts).
 */
export const FUNCTION_CLIENT_SOURCE = `
const appData = globalThis[Symbol.for(${JSON.stringify(APP_DATA_GLOBAL)})];
const FAILED = ${JSON.stringify(messages.clientRequestFailed)};
${CLIENT_ERROR_SOURCE}
async function request(method, path, payload) {
  if (typeof appData !== "function") throw new AppClientError(0, "NETWORK_ERROR", FAILED, null);
  const res = await appData(method, path.replace(/^\\/data\\//, ""), payload === undefined ? undefined : JSON.stringify(payload));
  let data = null;
  try {
    data = await res.json();
  } catch (_) {}
  if (!res.ok) {
    const e = data && typeof data === "object" && data.error && typeof data.error === "object" ? data.error : {};
    throw new AppClientError(
      res.status,
      typeof e.code === "string" ? e.code : "HTTP_" + res.status,
      typeof e.message === "string" ? e.message : FAILED,
      typeof e.field === "string" ? e.field : null,
    );
  }
  return data;
}
${ENTITIES_SOURCE}
`;
