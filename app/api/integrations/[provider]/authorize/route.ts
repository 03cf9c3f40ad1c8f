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
    // Success is a 302 to the provider. A browser gets each refusal as a page with its status:
    // 400 a missing, forged or expired token; 401 not signed in; 403 not a builder, or the token
    // is another account's, or the app is not the caller's; 404 the app is gone; 503 the
    // connector is not set up on this server
    errors: [401, 403, 404, 503],
    redirects: { 302: "To the provider's consent page" },
  },
  ({ req, session, params, query }) =>
    authorizeConnector(session, params.provider, query.token, wantsPage(req.headers.get("accept"))),
);
