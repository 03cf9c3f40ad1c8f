import { route } from "@/lib/api/route";
import { contextStatusEvents } from "@/lib/context/events";
import { ContextAppQuery, ContextStatusAnswer } from "@/lib/context/schemas";

// GET /api/context/events?appId={appId} - live status of the app's data sources (Server-Sent Events)
export const GET = route(
  {
    auth: "builder",
    query: ContextAppQuery,
    app: "edit",
    summary: "Live status of an app's data sources",
    stream: {
      contentType: "text/event-stream",
      description:
        "The app's data sources still on their way (unsynced, pending, running) as `event: status` lines ({ id, status, error, lastSyncedAt }), then each status change; `event: reconnect` at the stream's end of life. Without `Accept: text/event-stream`, the same list once as JSON: { contextItems: [...] }",
    },
    // 429 TOO_MANY_STREAMS: the account (or the server) holds as many streams as it may
    errors: [429],
    // Asked without `Accept: text/event-stream`: the statuses once, as JSON
    response: ContextStatusAnswer,
  },
  ({ app, session, req }) => contextStatusEvents(app, session.account!.accountId, req),
);
