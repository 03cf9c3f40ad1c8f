import { route } from "@/lib/api/route";
import { authorizeConnector, wantsPage } from "@/lib/integrations/connect";
import { AuthorizeQuery, ProviderParams } from "@/lib/integrations/schemas";

// GET /api/integrations/{provider}/authorize?token={accessToken} - redirects to the provider's consent page
// (opened in a popup; the builder's session cookie and the token of fetchCarbonTokens are checked)
export const GET = route(
  {
    auth: "public",
    params: ProviderParams,
    query: AuthorizeQuery,
    summary:
      "Redirect to Notion's or Google's consent page (needs the builder's session and the connect token)",
  },
  ({ req, session, params, query }) =>
    authorizeConnector(session, params.provider, query.token, wantsPage(req.headers.get("accept"))),
);
