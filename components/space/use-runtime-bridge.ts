"use client";

import { type RefObject, useEffect, useRef } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { messages } from "@/lib/messages";
import { RUNTIME_MESSAGE, type RuntimeMode } from "@/lib/space/preview/types";

// The page around a space app's frame, for the app's data client (@app/client): the frame holds
// no cookie of ours (it is sandboxed into no origin), so it asks this page for a token scoped to
// the app and its viewer; this page gets one with its own session (POST .../runtime/token) and
// posts it to that frame only. The frame is known by its window, never by its origin (opaque).
// Sign-in and sign-out go to the app's own pages in the published app; the editor's preview
// always runs as its builder, which a toast says.

type TokenAnswer = { token: string | null; expiresAt: string | null; user: Record<string, unknown> | null };

/** Answers the token requests and sign-in/out messages of the frame `frame` shows for app `appId`. */
export function useRuntimeBridge(
  frame: RefObject<HTMLIFrameElement | null>,
  appId: string,
  mode: RuntimeMode,
): void {
  const modeRef = useRef(mode);
  modeRef.current = mode;

  useEffect(() => {
    // The frame repeats a request until it is answered: one token call at a time answers them all.
    let asking: Promise<Record<string, unknown>> | null = null;
    const onMessage = (event: MessageEvent) => {
      const target = frame.current?.contentWindow;
      if (!target || event.source !== target) return;
      const type = (event.data as { type?: unknown } | null)?.type;
      if (type === RUNTIME_MESSAGE.tokenRequest) {
        asking ??= tokenMessage(appId).finally(() => {
          asking = null;
        });
        // The frame may have gone meanwhile (another version shown): posting to it then does nothing.
        void asking.then((message) => target.postMessage(message, "*"));
      } else if (type === RUNTIME_MESSAGE.signIn || type === RUNTIME_MESSAGE.signOut) {
        if (modeRef.current !== "published") {
          toast.info(messages.runtimePreviewAuth);
          return;
        }
        const home = `/app/${appId}`;
        window.location.assign(
          type === RUNTIME_MESSAGE.signIn
            ? `${home}/login?redirectTo=${encodeURIComponent(home)}`
            : `${home}/logout`,
        );
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [frame, appId]);
}

/** The answer to a token request: the token of this page's viewer, or why there is none. */
async function tokenMessage(appId: string): Promise<Record<string, unknown>> {
  try {
    const answer = await apiFetch<TokenAnswer>(`/api/apps/${appId}/runtime/token`, { body: {} });
    return {
      type: RUNTIME_MESSAGE.token,
      token: answer.token,
      expiresAt: answer.expiresAt,
      user: answer.user,
    };
  } catch (err) {
    // The frame's call fails with this error (an AppClientError) rather than waiting it out.
    const failed = err instanceof ApiError ? err : null;
    return {
      type: RUNTIME_MESSAGE.token,
      token: null,
      expiresAt: null,
      user: null,
      error: {
        status: failed?.status ?? 0,
        code: failed?.code ?? "APP_TOKEN_FAILED",
        message:
          failed && failed.status > 0 && failed.status < 500 ? failed.message : messages.runtimeTokenFailed,
      },
    };
  }
}
