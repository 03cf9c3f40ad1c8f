import { route } from "@/lib/api/route";
import { listAppContextItems } from "@/lib/context/items";
import { ContextItemsAnswer, ContextListQuery } from "@/lib/context/schemas";

// GET /api/context/items?appId={appId}[&status=unsynced] - the app's data sources and whether the plan allows more
export const GET = route(
  {
    auth: "builder",
    query: ContextListQuery,
    app: "edit",
    summary: "List an app's data sources",
    response: ContextItemsAnswer,
  },
  ({ app, query }) => listAppContextItems(app, query.status),
);
