import "server-only";
import { findChatMessage, insertRating } from "@/db/queries/space-chat";
import type { App } from "@/db/schema";
import { RATING_POSITIVE_FROM } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { assertSpaceApp } from "./commit";
import { RATING_POSITIVE_REASONS, RATING_PROBLEM_REASONS, type RatingBody } from "./schemas";
import { type RatingView, ratingView } from "./views";

// Ratings of the assistant's answers: a score of 1-5, reasons from the list that
// fits the score (positive from 4, problems below), an optional comment, once per message.

/** The reasons a score may come with: "Score 4 or more shows positive reasons; below 4 shows problem reasons". */
export function reasonsFor(score: number): readonly string[] {
  return score >= RATING_POSITIVE_FROM ? RATING_POSITIVE_REASONS : RATING_PROBLEM_REASONS;
}

/** POST /api/apps/{appId}/rating. A message already rated answers 409 'already rated'. */
export async function rateMessage(
  app: App,
  accountId: string,
  body: RatingBody,
): Promise<{ rating: RatingView }> {
  assertSpaceApp(app);
  const allowed = reasonsFor(body.score);
  const feedback = [...new Set(body.feedback)];
  if (feedback.some((r) => !allowed.includes(r))) {
    throw new AppError("BAD_REQUEST", "ratingReasonsMismatch", "REASONS_MISMATCH");
  }
  const message = await findChatMessage(app.id, body.messageId);
  if (!message || message.removedAt) throw new AppError("NOT_FOUND", "chatMessageNotFound");
  // Answers only, once written: a user's own message or a restore notice has nothing to rate.
  if (message.role !== "assistant" || message.kind !== "message" || message.status === "streaming") {
    throw new AppError("BAD_REQUEST", "ratingNotAnswer", "NOT_AN_ANSWER");
  }
  const comment = body.comment?.trim() || null;
  const rating = await insertRating({
    appId: app.id,
    messageId: message.id,
    accountId,
    score: body.score,
    // In the list's order, whatever order they were ticked in.
    feedback: allowed.filter((r) => feedback.includes(r)),
    comment,
  });
  if (!rating) throw new AppError("CONFLICT", "ratingAlreadyRated", "ALREADY_RATED");
  return { rating: ratingView(rating)! };
}
