import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { rateMessage } from "@/lib/space/rating";
import { RateAnswer, RatingBody } from "@/lib/space/schemas";

// POST /api/apps/{appId}/rating - rate an answer of the chat assistant, once
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: RatingBody,
    app: "edit",
    summary:
      "Rate an answer of the chat assistant (score 1-5, reasons fitting the score, comment); once per message",
    response: RateAnswer,
    // 409: the message is rated already.
    errors: [409],
  },
  ({ session, app, body }) => rateMessage(app, session.account!.accountId, body),
);
