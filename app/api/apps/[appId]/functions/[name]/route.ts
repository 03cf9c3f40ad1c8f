import { route } from "@/lib/api/route";
import { callPublicFunction } from "@/lib/functions/public-call";
import { FunctionParams } from "@/lib/functions/schemas";

// ANY /api/apps/{appId}/functions/{name} - a published space app's deployed function, public (webhooks).
// 403 unpublished, 404 not deployed, 413 body over the runtime's cap, 429 per address, 502 a
// crashed function or one answering too much, 504 one past its time; otherwise its own answer.
const call = route(
  {
    auth: "public",
    params: FunctionParams,
    raw: true,
    cap: "functionCall",
    summary: "Calls a published space app's deployed function (any method); answers the function's response",
    stream: { contentType: "*/*", description: "The function's own answer: its status, headers and body" },
    errors: [403, 404, 429, 502, 504],
  },
  ({ req, params, raw, ip }) =>
    callPublicFunction(params.appId, params.name, ip, {
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: raw,
    }),
);

export const GET = call;
export const POST = call;
export const PUT = call;
export const PATCH = call;
export const DELETE = call;
export const OPTIONS = call;
