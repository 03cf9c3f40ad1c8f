import { route } from "@/lib/api/route";
import { contextStatusEvents } from "@/lib/context/events";
import { ContextAppQuery } from "@/lib/context/schemas";

// GET /api/context/events?appId={appId} - live status of the app's data sources (Server-Sent Events)
export const GET = route(
  { auth: "builder", query: ContextAppQuery, app: "edit", summary: "Live status of an app's data sources" },
  ({ app, session, req }) => contextStatusEvents(app, session.account!.accountId, req),
);
