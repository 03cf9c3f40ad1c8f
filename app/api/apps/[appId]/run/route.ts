import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { runTool } from "@/lib/runs/run-tool";
import { RunBody } from "@/lib/runs/schemas";

// POST /api/apps/{appId}/run - run a tool of a published app; the answer streams as the model writes it
export const POST = route(
  {
    auth: "public",
    params: AppIdParams,
    body: RunBody,
    cap: "aiPrompt",
    summary: "Run a tool: the model's answer, streamed",
    errors: [401, 402, 403, 404, 429, 502, 503],
    stream: {
      contentType: "text/event-stream",
      description:
        "The answer as Server-Sent Events in the AI SDK's UI message stream protocol (header x-vercel-ai-ui-message-stream: v1): one JSON part per `data:` line - start (messageId = the run id), text-start, text-delta (delta = the next words), text-end, finish (messageMetadata: runId, status, usage) - then `data: [DONE]`. An error after the first words is an `error` part (errorText). The run's id is also in the x-run-id header. Every refusal before the answer starts (app or tool not found 404, sign-in required 401, inputs 400, membership 402, limits 429 with `limit`, model not configured 503, model failed 502) is a JSON error.",
    },
  },
  ({ session, params, body, ip, req }) =>
    runTool({ session, appId: params.appId, body, ip, signal: req.signal }),
);
