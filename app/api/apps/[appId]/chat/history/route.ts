import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { listChatHistory } from "@/lib/space/chat";
import { HistoryAnswer, HistoryQuery } from "@/lib/space/schemas";

// GET /api/apps/{appId}/chat/history?fromMessageId={id}&limit=50 - a page of the conversation before a message
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    query: HistoryQuery,
    app: "edit",
    summary:
      "A page of a space app's conversation: the messages before fromMessageId (the latest without it)",
    response: HistoryAnswer,
  },
  ({ app, query }) => listChatHistory(app, query),
);
