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
  },
  ({ req, session, params, query }) =>
    connectorCallback(session, params.provider, query, wantsPage(req.headers.get("accept"))),
);
