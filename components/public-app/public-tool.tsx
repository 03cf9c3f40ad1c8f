"use client";

import { usePathname } from "next/navigation";
import * as React from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import type { PublicContent } from "@/lib/apps/public-content";
import { RESERVED_FIELD_NAME } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { MemoriesAnswer } from "@/lib/runs/schemas";
import {
  emptyValues,
  type FieldError,
  type FormValues,
  hasMemorizeFields,
  prefill,
  toRunInputs,
} from "./form-values";
import { type FormContent, PublicAppForm } from "./public-app-form";
import { RunResult } from "./run-result";
import { useToolRun } from "./use-tool-run";

// A tool on its public page: the form, the run and its answer. The run goes to
// POST /api/apps/{appId}/run and streams back; the server decides who runs it (the app's builder
// previews, a signed-in end user of this app, or a visitor) and refuses what it must before the
// answer starts. For a signed-in end user the form is prefilled with their email and with what
// the app remembers of their earlier answers (memorize fields), which they can make it forget.
// In the editor's preview pane nothing runs: the content there is not saved yet.

type ToolContent = FormContent & Pick<PublicContent, "resultsLayout" | "welcomeMessage">;

/** What a live page knows for running its tool. */
export type PublicRunConfig = {
  /** The tool to run (a generated app's tool page); null for a single-tool app. */
  toolId: string | null;
  /** userCanEditResults */
  userCanEditResults: boolean;
  /** The signed-in end user of THIS app, else null (another app's session is nobody here). */
  email: string | null;
  /** isSignupEnabled: runs need an end user signed in. */
  signInRequired: boolean;
  /** End users sign in only to published apps. */
  published: boolean;
  /** The viewer is the app's builder: an answer offers the data the run used. */
  showRunContext?: boolean;
};

export function PublicTool({
  appId,
  content,
  buttonStyle,
  run,
  cta,
  label,
}: {
  appId: string;
  /** The form's name for assistive tech: the tool's title. */
  label: string;
  content: ToolContent;
  buttonStyle: React.CSSProperties;
  /** Null in the editor's preview: the form is shown, nothing runs. */
  run: PublicRunConfig | null;
  /** The call to action, shown once an answer has arrived. */
  cta?: React.ReactNode;
}) {
  const pathname = usePathname();
  const { state, start, cancel, reset } = useToolRun(appId, run?.toolId ?? null);
  const email = run?.email ?? null;
  const [values, setValues] = React.useState<FormValues>(() =>
    run ? prefill(content.fields, emptyValues(content), { email }).values : emptyValues(content),
  );
  const valuesRef = React.useRef(values);
  valuesRef.current = values;
  // The answers put in from memory, to clear again when the user asks the app to forget them.
  const [remembered, setRemembered] = React.useState<FormValues>({});
  const [forgetting, setForgetting] = React.useState(false);
  const [focusFirst, setFocusFirst] = React.useState(0);
  const headingRef = React.useRef<HTMLHeadingElement>(null);
  const cancelRef = React.useRef<HTMLButtonElement>(null);
  const canRemember = !!run && !!email && run.published && hasMemorizeFields(content.fields);
  // Photo fields upload to the app (and tool) being run; in the editor's preview nothing uploads.
  const photoTarget = React.useMemo(() => (run ? { appId, toolId: run.toolId } : null), [run, appId]);

  // The end user's memories of this app, once: only their own session may read them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once per app and user
  React.useEffect(() => {
    if (!canRemember) return;
    let live = true;
    apiFetch<MemoriesAnswer>(`/api/live_api/user/memories/current?appId=${encodeURIComponent(appId)}`)
      .then(({ memories }) => {
        if (!live) return;
        const { values: next, filled } = prefill(content.fields, valuesRef.current, { memories });
        setValues(next);
        setRemembered(Object.fromEntries(filled.map((name) => [name, next[name]!])));
      })
      // Without them the form is simply empty, as on a first visit.
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [appId, canRemember]);

  async function forget() {
    setForgetting(true);
    try {
      await apiFetch(`/api/live_api/user/memories/current?appId=${encodeURIComponent(appId)}`, {
        method: "DELETE",
      });
      // What came from memory goes; what the user changed since stays.
      setValues((current) => {
        const next = { ...current };
        for (const [name, value] of Object.entries(remembered)) {
          if (JSON.stringify(next[name]) === JSON.stringify(value))
            next[name] = Array.isArray(value) ? [] : "";
        }
        return next;
      });
      setRemembered({});
      toast.success(messages.publicAnswersForgotten);
    } catch (err) {
      toast.error(err instanceof ApiError && err.status > 0 ? err.message : messages.internal);
    } finally {
      setForgetting(false);
    }
  }

  // The server's refusal of one field, as the form marks it (one object per refusal).
  const serverError = React.useMemo<FieldError | null>(() => {
    if (state.status !== "error" || !state.error.field) return null;
    const name = state.error.field;
    const known =
      content.fields.some((f) => f.name === name) || (name === RESERVED_FIELD_NAME && !content.isInputHidden);
    return known ? { name, message: state.error.message } : null;
  }, [state, content.fields, content.isInputHidden]);

  // Focus follows the run: to Cancel when it starts, to the results when it ends (to the field
  // when the server named one; to the form when it said the form was empty).
  const previous = React.useRef(state.status);
  React.useEffect(() => {
    const from = previous.current;
    previous.current = state.status;
    if (from === state.status) return;
    if (state.status === "loading") requestAnimationFrame(() => cancelRef.current?.focus());
    else if (state.status === "error" && state.error.code === "INPUT_EMPTY") setFocusFirst((n) => n + 1);
    else if ((state.status === "success" || state.status === "error") && !serverError) {
      requestAnimationFrame(() => headingRef.current?.focus());
    }
  }, [state, serverError]);

  const signInHref = `/app/${appId}/login?redirectTo=${encodeURIComponent(pathname || `/app/${appId}`)}`;
  const footer = run ? (
    <>
      {run.signInRequired && run.published && !email && (
        <p className="text-sm text-muted-foreground">
          {messages.publicRunSignInHint}{" "}
          <a
            href={signInHref}
            className="rounded-sm font-medium text-foreground underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            {messages.publicSignIn}
          </a>
        </p>
      )}
      {canRemember && (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
          {Object.keys(remembered).length > 0 && <span>{messages.publicAnswersRemembered}</span>}
          <button
            type="button"
            onClick={() => void forget()}
            disabled={forgetting}
            aria-busy={forgetting}
            className="rounded-sm font-medium text-foreground underline underline-offset-4 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
          >
            {messages.publicForgetAnswers}
          </button>
        </div>
      )}
    </>
  ) : null;

  return (
    <>
      <section
        aria-label={content.inputLabel || label}
        className="rounded-xl border border-border bg-background p-4 text-foreground shadow-sm @md:p-6"
      >
        <PublicAppForm
          content={content}
          buttonStyle={buttonStyle}
          values={values}
          onValueChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
          onRun={run ? () => void start(toRunInputs(content, values)) : undefined}
          disabledNote={run ? undefined : messages.publicRunsInPreview}
          running={state.status === "loading"}
          serverError={serverError}
          focusFirst={focusFirst}
          footer={footer}
          photoTarget={photoTarget}
        />
      </section>
      <RunResult
        state={state}
        layout={content.resultsLayout}
        welcome={content.welcomeMessage}
        editable={!!run?.userCanEditResults}
        onCancel={run ? cancel : null}
        onReset={reset}
        signInHref={signInHref}
        appId={appId}
        email={email}
        headingRef={headingRef}
        cancelRef={cancelRef}
        errorAtField={serverError !== null}
        showRunContext={!!run?.showRunContext}
      />
      {state.status === "success" && cta}
    </>
  );
}
