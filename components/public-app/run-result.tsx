"use client";

import { CopyIcon, LoaderCircleIcon, RotateCcwIcon, SquareIcon } from "lucide-react";
import dynamic from "next/dynamic";
import * as React from "react";
import { toast } from "sonner";
import type { AppContent } from "@/lib/apps/schemas";
import { publicAppMessages } from "@/lib/messages/public-app";
import { shellMessages } from "@/lib/messages/shell";
import { cn } from "@/lib/utils";
import { MembershipGate } from "./membership-gate";
import type { RunState } from "./use-tool-run";

// Where a run's answer shows, by run state: in Idle the welcome message and the shape
// of the chosen results layout; in Loading the answer as it streams, with Cancel; in Success the
// answer (an editable textarea when the builder lets users edit results; edits stay in the page),
// Copy and Start over; in Error what went wrong, under the text that had arrived, with the way on
// (sign in, become a member) where there is one.
//
// Screen readers: the answer sits in a polite live region that is busy while it streams, so it
// is read once complete rather than word by word; errors are alerts.
//
// "Data used" is for the app's builder only, after an answer: its code loads then.
const RunContextDisclosure = dynamic(() =>
  import("@/components/runs/run-context").then((m) => m.RunContextDisclosure),
);

type Layout = AppContent["resultsLayout"];

const actionClass =
  "inline-flex h-9 items-center gap-1.5 rounded-md border border-border bg-background px-3 text-sm font-medium text-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

export type RunResultProps = {
  state: RunState;
  layout: Layout;
  welcome: string;
  /** userCanEditResults */
  editable: boolean;
  /** null in the editor's preview, where nothing runs. */
  onCancel: (() => void) | null;
  onReset: () => void;
  /** The app's sign-in page, back to this page afterwards. */
  signInHref: string;
  appId: string;
  /** The signed-in end user's address (for the membership gate). */
  email: string | null;
  headingRef: React.Ref<HTMLHeadingElement>;
  cancelRef: React.Ref<HTMLButtonElement>;
  /** The error is shown at the field it names, in the form: nothing ran, so nothing to show here. */
  errorAtField?: boolean;
  /** The viewer is the app's builder: a finished run offers the data its model was given. */
  showRunContext?: boolean;
};

export function RunResult(props: RunResultProps) {
  const { state, layout, welcome, editable, onCancel, onReset, headingRef, cancelRef, errorAtField } = props;
  const nothingToShow = state.status === "idle" || (state.status === "error" && errorAtField && !state.text);
  const headingId = React.useId();
  const text = state.status === "idle" ? "" : state.text;
  const [edited, setEdited] = React.useState<string | null>(null);
  // A new run (or a reset) starts from the model's words again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the run's status change
  React.useEffect(() => setEdited(null), [state.status]);
  const shown = edited ?? text;

  async function copy() {
    try {
      await navigator.clipboard.writeText(shown);
      toast.success(publicAppMessages.publicResultCopied);
    } catch {
      // The clipboard can be refused (permissions, an unfocused page): the text is there to select.
      toast.error(publicAppMessages.publicCopyFailed);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="grid gap-4 rounded-xl border border-border bg-background p-4 text-foreground shadow-sm @md:p-6"
      data-results-layout={layout}
      data-run-status={state.status}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2
          id={headingId}
          ref={headingRef}
          tabIndex={-1}
          className="rounded-sm text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {publicAppMessages.publicResults}
        </h2>
        {/* What the run is doing, for screen readers (the spinner and the text say it on screen). */}
        <p role="status" className="sr-only">
          {state.status === "loading"
            ? publicAppMessages.publicGenerating
            : state.status === "success"
              ? publicAppMessages.publicAnswerReady
              : ""}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {state.status === "loading" && onCancel && (
            <button ref={cancelRef} type="button" className={actionClass} onClick={onCancel}>
              <SquareIcon className="size-3.5" aria-hidden />
              {shellMessages.cancel}
            </button>
          )}
          {state.status === "success" && shown.trim() !== "" && (
            <button type="button" className={actionClass} onClick={() => void copy()}>
              <CopyIcon className="size-4" aria-hidden />
              {publicAppMessages.publicCopyResult}
            </button>
          )}
          {(state.status === "success" || state.status === "error") && !nothingToShow && (
            <button type="button" className={actionClass} onClick={onReset}>
              <RotateCcwIcon className="size-4" aria-hidden />
              {publicAppMessages.publicStartOver}
            </button>
          )}
        </div>
      </div>

      {nothingToShow && <IdlePlaceholder layout={layout} welcome={welcome} />}

      {state.status === "loading" && (
        <p aria-hidden className="flex items-center gap-2 text-sm text-muted-foreground">
          <LoaderCircleIcon className="size-4 animate-spin" />
          {publicAppMessages.publicGenerating}
        </p>
      )}

      {/* Always in the page (never display:none), so what arrives in it is announced; empty, it takes no room. */}
      <div aria-live="polite" aria-busy={state.status === "loading"} className="grid gap-3 empty:-mt-4">
        {state.status === "success" && editable ? (
          <EditableAnswer value={shown} onChange={setEdited} />
        ) : text ? (
          <Answer text={text} layout={layout} streaming={state.status === "loading"} />
        ) : null}
        {state.status === "success" && !text.trim() && (
          <p className="text-sm">{publicAppMessages.publicEmptyAnswer}</p>
        )}
        {state.status === "success" && state.finishReason === "length" && (
          <p className="text-sm text-muted-foreground">{publicAppMessages.publicAnswerAtLimit}</p>
        )}
      </div>

      {state.status === "error" && !nothingToShow && <RunErrorBox {...props} state={state} />}
      {props.showRunContext && state.status === "success" && state.runId ? (
        <RunContextDisclosure key={state.runId} appId={props.appId} runId={state.runId} />
      ) : null}
    </section>
  );
}

function RunErrorBox({
  state,
  signInHref,
  appId,
  email,
}: RunResultProps & { state: Extract<RunState, { status: "error" }> }) {
  const { error } = state;
  const signIn = error.code === "SIGN_IN_REQUIRED" || error.code === "MEMBERSHIP_SIGN_IN";
  return (
    <div
      role="alert"
      className="grid gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm"
      data-error-code={error.code}
    >
      <p className="font-medium text-destructive">{error.message}</p>
      {signIn && (
        <a
          href={signInHref}
          className="inline-flex h-9 items-center justify-self-start rounded-md bg-primary px-4 text-sm font-semibold text-primary-foreground hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        >
          {publicAppMessages.publicSignIn}
        </a>
      )}
      {/* The app's own gate (as in the top bar), opened again: buy, then "I've bought it". */}
      {error.code === "MEMBERSHIP_REQUIRED" && error.product && email && (
        <div className="justify-self-start">
          <MembershipGate appId={appId} product={error.product} email={email} />
        </div>
      )}
    </div>
  );
}

/** The answer as the chosen layout shows it: running text, a list of its lines, or a card a paragraph. */
function Answer({ text, layout, streaming }: { text: string; layout: Layout; streaming: boolean }) {
  const cursor = streaming ? (
    <span
      aria-hidden
      className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-foreground align-text-bottom"
    />
  ) : null;
  if (layout === "list") {
    const items = answerLines(text);
    return (
      <ul className="grid gap-2">
        {items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of one text, in order, only ever appended to
          <li key={i} className="flex gap-2 break-words">
            <span aria-hidden className="mt-2 size-1.5 shrink-0 rounded-full bg-foreground" />
            <span className="min-w-0 whitespace-pre-wrap">
              {item}
              {i === items.length - 1 && cursor}
            </span>
          </li>
        ))}
      </ul>
    );
  }
  if (layout === "cards") {
    const cards = answerParagraphs(text);
    return (
      <div className={cn("grid grid-cols-1 gap-3", cards.length > 1 && "@lg:grid-cols-2")}>
        {cards.map((card, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one text, in order, only ever appended to
            key={i}
            className="rounded-lg border border-border bg-muted/40 p-3 whitespace-pre-wrap break-words"
          >
            {card}
            {i === cards.length - 1 && cursor}
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="whitespace-pre-wrap break-words leading-relaxed">
      {text}
      {cursor}
    </div>
  );
}

const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+/;

/** The lines of an answer for the list layout, without the bullets or numbers the model wrote. */
export function answerLines(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(BULLET, "").trim())
    .filter(Boolean);
  return lines.length ? lines : [text.trim()];
}

/** The paragraphs of an answer for the cards layout. */
export function answerParagraphs(text: string): string[] {
  const paragraphs = text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return paragraphs.length ? paragraphs : [text.trim()];
}

function EditableAnswer({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = React.useId();
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {publicAppMessages.publicResultEditLabel}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={Math.min(20, Math.max(6, value.split("\n").length + 1))}
        aria-describedby={`${id}-hint`}
        className={cn(
          "w-full resize-y rounded-md border border-border bg-background px-3 py-2 text-base text-foreground shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring @md:text-sm",
        )}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {publicAppMessages.publicResultEditHint}
      </p>
    </div>
  );
}

/** Before any run: the welcome message waits where results will show, shaped like the chosen layout. */
function IdlePlaceholder({ layout, welcome }: { layout: Layout; welcome: string }) {
  return (
    <>
      {welcome && <p className="whitespace-pre-line break-words">{welcome}</p>}
      <div className="grid gap-3 rounded-lg border border-dashed border-border p-4">
        <p className="text-sm text-muted-foreground">{publicAppMessages.publicResultsEmpty}</p>
        <div
          aria-hidden
          className={cn(layout === "cards" ? "grid grid-cols-1 gap-3 @sm:grid-cols-3" : "grid gap-2")}
        >
          {layout === "text" &&
            ["w-full", "w-11/12", "w-2/3"].map((w) => (
              <span key={w} className={cn("h-2 rounded-full bg-muted", w)} />
            ))}
          {layout === "cards" &&
            [0, 1, 2].map((i) => (
              <span key={i} className="h-16 rounded-lg border border-border bg-muted/60" />
            ))}
          {layout === "list" &&
            [0, 1, 2].map((i) => (
              <span key={i} className="flex items-center gap-2">
                <span className="size-3 rounded-full bg-muted" />
                <span className="h-2 flex-1 rounded-full bg-muted" />
              </span>
            ))}
        </div>
      </div>
    </>
  );
}
