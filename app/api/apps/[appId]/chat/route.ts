import { route } from "@/lib/api/route";
import { startChatImport } from "@/lib/app-data/chat-import";
import { AppIdParams } from "@/lib/apps/schemas";
import { ChatSendBody } from "@/lib/space/chat-schemas";
import { streamChat } from "@/lib/space/chat-stream";

// POST /api/apps/{appId}/chat - the chat assistant of a space app answers, writing the app's files as it streams
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: ChatSendBody,
    app: "edit",
    cap: "aiPrompt",
    // 409: another answer of the app is streaming; 429: the plan's AI requests are spent; 503: no model.
    errors: [409, 429, 503],
    summary:
      "Send a message to a space app's chat assistant (or continue a cut-off answer, or retry the last message): the answer, streamed",
    stream: {
      contentType: "text/event-stream",
      description:
        "The answer as Server-Sent Events in the AI SDK's UI message stream protocol (header x-vercel-ai-ui-message-stream: v1): start (messageId = the answer's id; messageMetadata: userMessageId, removedMessageIds, status, discussMode), text-start / text-delta / text-end for the prose, data-action (id stable per action, data = the chat action with its content so far and status streaming, complete or truncated) updated in place, data-version (the version the answer's changes made), finish (finishReason; messageMetadata with status complete or truncated, versionId, usage) - then `data: [DONE]`. A failed answer ends with message-metadata (status failed, error) and an error part instead of finish; nothing of it is applied. Refusals before the stream are JSON errors: body 400, not the last message 400 RETRY_NOT_LAST, nothing to continue 400 NOTHING_TO_CONTINUE, another answer streaming 409 CHAT_BUSY, the builder's AI requests of the plan spent 429 MODEL_LIMIT_REACHED (with upgradeReason and limit), model not configured 503. The answer's id is also in the x-chat-message-id header.",
    },
  },
  ({ session, app, body, req }) =>
    streamChat({ app, session, body, signal: req.signal, startImport: startChatImport }),
);
