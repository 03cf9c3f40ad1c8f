"use client";

import { StarIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { RATING_COMMENT_MAX, RATING_MAX, RATING_MIN, RATING_POSITIVE_FROM } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { RATING_POSITIVE_REASONS, RATING_PROBLEM_REASONS } from "@/lib/space/schemas";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { type RatingView, rateMessage } from "./chat-api";

const SCORES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/**
 * The rating dialog of an answer: a score of 1-5, the reasons that fit it (positive
 * from 4, problems below; picked reasons that no longer fit are dropped when the score moves),
 * an optional comment sent trimmed. "Rating dialog resets on close": the form lives
 * inside the open dialog only.
 */
export function RatingDialog({
  appId,
  messageId,
  open,
  onOpenChange,
  onRated,
}: {
  appId: string;
  messageId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The rating was stored (or the server says the answer was rated already: `rating` null). */
  onRated: (rating: RatingView | null) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="sm">
        {open ? (
          <RatingForm
            appId={appId}
            messageId={messageId}
            onDone={(rating) => {
              onRated(rating);
              onOpenChange(false);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function RatingForm({
  appId,
  messageId,
  onDone,
}: {
  appId: string;
  messageId: string;
  onDone: (rating: RatingView | null) => void;
}) {
  const [score, setScore] = useState(0);
  const [reasons, setReasons] = useState<string[]>([]);
  const [comment, setComment] = useState("");
  const [missingScore, setMissingScore] = useState(false);
  const [sending, setSending] = useState(false);
  const id = useId();
  const positive = score >= RATING_POSITIVE_FROM;
  const choices: readonly string[] =
    score === 0 ? [] : positive ? RATING_POSITIVE_REASONS : RATING_PROBLEM_REASONS;

  const pickScore = (n: number) => {
    setScore(n);
    setMissingScore(false);
    const fits: readonly string[] =
      n >= RATING_POSITIVE_FROM ? RATING_POSITIVE_REASONS : RATING_PROBLEM_REASONS;
    setReasons((picked) => picked.filter((r) => fits.includes(r)));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // "Rating needs score of at least 1".
    if (score < RATING_MIN) {
      setMissingScore(true);
      return;
    }
    setSending(true);
    try {
      const { rating } = await rateMessage(appId, {
        messageId,
        score,
        feedback: reasons,
        comment: comment.trim() || null,
      });
      toast.success(messages.ratingSent);
      onDone(rating);
    } catch (err) {
      if (err instanceof ApiError && err.code === "ALREADY_RATED") {
        toast.error(messages.ratingAlreadyRated);
        onDone(null);
      } else {
        toast.error(messages.ratingSubmitFailed);
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={submit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{messages.ratingTitle}</DialogTitle>
        <DialogDescription className="sr-only">{messages.ratingTitle}</DialogDescription>
      </DialogHeader>
      <fieldset className="grid gap-2" aria-describedby={missingScore ? `${id}-score-error` : undefined}>
        <legend className="mb-2 text-sm font-medium">{messages.ratingScore}</legend>
        <div className="flex gap-1">
          {SCORES.map((n) => (
            <label
              key={n}
              className="relative cursor-pointer rounded-md p-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <StarIcon
                aria-hidden
                className={cn(
                  "size-7",
                  n <= score ? "fill-amber-400 text-amber-600 dark:text-amber-400" : "text-muted-foreground",
                )}
              />
              {/* Over the star, invisible: the star is what is seen, the radio what is clicked and read. */}
              <input
                type="radio"
                name={`${id}-score`}
                value={n}
                checked={score === n}
                onChange={() => pickScore(n)}
                className="absolute inset-0 size-full cursor-pointer opacity-0"
                aria-label={fillTemplate(messages.ratingStar, { n })}
              />
            </label>
          ))}
        </div>
        {missingScore ? (
          <p id={`${id}-score-error`} className="text-xs font-medium text-destructive">
            {messages.ratingNeedsScore}
          </p>
        ) : null}
      </fieldset>
      {choices.length > 0 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">
            {positive ? messages.ratingPositiveLegend : messages.ratingProblemLegend}
          </legend>
          {choices.map((reason, i) => {
            const boxId = `${id}-reason-${i}`;
            return (
              <div key={reason} className="flex items-center gap-2">
                <Checkbox
                  id={boxId}
                  checked={reasons.includes(reason)}
                  onCheckedChange={(checked) =>
                    setReasons((picked) =>
                      checked === true ? [...picked, reason] : picked.filter((r) => r !== reason),
                    )
                  }
                />
                <Label htmlFor={boxId} className="font-normal">
                  {reason}
                </Label>
              </div>
            );
          })}
        </fieldset>
      ) : null}
      <div className="grid gap-2">
        <Label htmlFor={`${id}-comment`}>{messages.ratingComment}</Label>
        <Textarea
          id={`${id}-comment`}
          value={comment}
          maxLength={RATING_COMMENT_MAX}
          rows={3}
          onChange={(e) => setComment(e.target.value)}
        />
      </div>
      <DialogFooter>
        <Button type="submit" disabled={sending}>
          {messages.ratingSubmit}
        </Button>
      </DialogFooter>
    </form>
  );
}
