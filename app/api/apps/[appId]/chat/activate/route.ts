import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { activateChatAssistant } from "@/lib/space/assistant";
import { ActivateChatBody, ChatAssistantAnswer } from "@/lib/space/schemas";

// POST /api/apps/{appId}/chat/activate - switch the app's chat assistant on or off
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: ActivateChatBody,
    app: "edit",
    summary: "Activate or deactivate the app's chat assistant; answers its chatAppId",
    response: ChatAssistantAnswer,
  },
  ({ app, body }) => activateChatAssistant(app, body.isActive),
);
