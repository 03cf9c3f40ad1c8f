import { route } from "@/lib/api/route";
import { connectorCallback, wantsPage } from "@/lib/integrations/connect";
import { CallbackQuery, ProviderParams } from "@/lib/integrations/schemas";

// GET /api/integrations/{provider}/callback?code=&state= - stores the connection; an HTML page tells the dialog
export const GET = route(
  {
    auth: "public",
    params: ProviderParams,
    query: CallbackQuery,
    summary:
      "OAuth redirect target: stores the builder's connection and answers a page that tells the editor",
    // Success is an HTML page. Refusals as for authorize (a page for a browser), and 400 when the
    // builder refused; 502 when the provider would not exchange the code
    errors: [401, 403, 404, 502, 503],
    stream: {
      contentType: "text/html",
      description: "A page that tells the editor's dialog the connection is made, and closes",
    },
  },
  ({ req, session, params, query }) =>
    connectorCallback(session, params.provider, query, wantsPage(req.headers.get("accept"))),
);
