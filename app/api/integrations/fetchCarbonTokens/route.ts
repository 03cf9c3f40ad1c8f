import { route } from "@/lib/api/route";
import { connectorTokens } from "@/lib/integrations/connect";
import { ConnectorAppQuery, ConnectorTokensAnswer } from "@/lib/integrations/schemas";

// GET /api/integrations/fetchCarbonTokens?appId={appId} - the connect token (OAuth state), the plan's connector limits and each connector's state
export const GET = route(
  {
    auth: "builder",
    query: ConnectorAppQuery,
    app: "edit",
    summary: "The connector token of the Data Sources dialog and each connector's state",
    response: ConnectorTokensAnswer,
  },
  ({ session, app }) => connectorTokens(session, app),
);
