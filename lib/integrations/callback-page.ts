import "server-only";
import { createHash } from "node:crypto";
import { appOrigin } from "@/lib/env";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { type IntegrationProvider, PROVIDER_NAMES } from "./config";

/** The channel the connect page also announces itself on, for a dialog whose popup lost its opener. */
export const CONNECTORS_CHANNEL = "connectors";

export type ConnectorPageMessage =
  | { type: "connector-connected"; provider: IntegrationProvider }
  | { type: "connector-error"; provider: IntegrationProvider; message: string };

const STYLE =
  "body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#fafafa;color:#111}" +
  "main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.25rem}a{color:#2563eb}";

const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The page the connect popup ends on (GET /api/integrations/{provider}/callback). It tells the
 * editor's Data Sources dialog how it went: postMessage to its opener (our origin only), and the
 * same message on BroadcastChannel "connectors", since a provider page with a strict
 * Cross-Origin-Opener-Policy may have cut the popup from its opener. Connected, it closes itself;
 * otherwise it stays, with the reason and a link back to the editor. Its one inline script is
 * allowed by its hash: the API's Content-Security-Policy allows nothing else.
 */
export function connectorPage(opts: {
  provider: IntegrationProvider;
  status: number;
  /** The message to show; absent: connected. */
  error?: string;
  /** Where the link leads: the app's editor when known. */
  backTo: string;
}): Response {
  const name = PROVIDER_NAMES[opts.provider];
  const data: ConnectorPageMessage = opts.error
    ? { type: "connector-error", provider: opts.provider, message: opts.error }
    : { type: "connector-connected", provider: opts.provider };
  const text = opts.error ?? fillTemplate(messages.connectorConnected, { provider: name });
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");
  const script =
    `(function(){var m=${json(data)};` +
    `try{if(window.opener)window.opener.postMessage(m,${json(appOrigin())})}catch(e){}` +
    `try{var c=new BroadcastChannel(${json(CONNECTORS_CHANNEL)});c.postMessage(m);c.close()}catch(e){}` +
    `if(m.type==="connector-connected")setTimeout(function(){window.close()},100)})();`;
  const title = fillTemplate(messages.connectorConnectTitle, { provider: name });
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(text)}</p>` +
    `<p><a href="${escapeHtml(opts.backTo)}">${escapeHtml(messages.connectorBackToEditor)}</a></p></main>` +
    `<script>${script}</script></body></html>`;
  return new Response(html, {
    status: opts.status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      // The address holds the provider's code: the link back must not carry it as a referrer.
      "referrer-policy": "no-referrer",
      "content-security-policy": [
        "default-src 'none'",
        `script-src ${hash(script)}`,
        `style-src ${hash(STYLE)}`,
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join("; "),
    },
  });
}
