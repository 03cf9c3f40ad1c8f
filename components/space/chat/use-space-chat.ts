"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/components/auth/api-client";
import { getBearerToken } from "@/components/auth/token-store";
import { openUpgradeDialog } from "@/components/plans/upgrade-dialog-store";
import { CHAT_HISTORY_PAGE_SIZE } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { ChatMessageView } from "@/lib/space/views";
import {
  fetchCurrentVersion,
  fetchHistory,
  type MergeResult,
  type RatingView,
  restoreVersion,
  revertToVersion,
  undoRestore,
} from "./chat-api";
import {
  annotation,
  currentVersionId,
  lastUserMessageId,
  prependPage,
  questionOf,
  upsertMessages,
} from "./conversation";
import { anchorMessage, liveView, refusalOf, type SpaceUIMessage, textOf } from "./live-message";

// The state of a space app's chat view: the stored conversation (paged from the end, 50 at a
// time), the answer useChat is streaming (POST /api/apps/{appId}/chat, the AI SDK's UI message
// stream), and the version actions (preview, restore, undo, revert) with the spec's toasts.
//
// The stored list is the truth: when an answer ends (finished, cut, stopped, failed) the latest
// page is read again and the streamed copy is dropped, so what the builder sees is what a reload
// shows.

type Phase = "loading" | "ready" | "failed";

/** How long to wait for a stopped answer to be stored as ended, reading the history again. */
const SETTLE_POLLS = 20;
const SETTLE_POLL_MS = 500;

/** A server refusal's own text when it gave one (4xx), else the spec's fallback. */
const serverText = (err: unknown, fallback: string) =>
  err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : fallback;

export type ScrollTarget = { id: string; nonce: number };

export function useSpaceChat({
  appId,
  target,
}: {
  appId: string;
  /** ?messageId= and preview=true of the chat view (jump to a message, preview its version). */
  target: { messageId: string | null; preview: boolean };
}) {
  const [stored, setStored] = useState<ChatMessageView[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [phase, setPhase] = useState<Phase>("loading");
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const [versionBusy, setVersionBusy] = useState(false);
  const [settling, setSettling] = useState(false);
  const [previewVersionId, setPreviewVersionId] = useState<string | null>(null);
  const [scrollTarget, setScrollTarget] = useState<ScrollTarget | null>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  /**
   * The app's current version as the server says (undefined until read). The conversation alone
   * cannot always tell: a retry goes back to a version without a message, the code editor makes
   * versions outside the chat.
   */
  const [headVersionId, setHeadVersionId] = useState<string | null | undefined>(undefined);
  const refreshHead = useCallback(() => {
    fetchCurrentVersion(appId).then(
      (current) => setHeadVersionId(current?.id ?? null),
      () => setHeadVersionId(undefined),
    );
  }, [appId]);
  /** Text handed back to the composer when the route refused a message before answering. */
  const [returnedDraft, setReturnedDraft] = useState<{ text: string; nonce: number } | null>(null);

  const transport = useMemo(
    () =>
      new DefaultChatTransport<SpaceUIMessage>({
        api: `/api/apps/${encodeURIComponent(appId)}/chat`,
        credentials: "same-origin",
        headers: (): Record<string, string> => {
          const token = getBearerToken();
          return token ? { authorization: `Bearer ${token}` } : {};
        },
        // The server keeps the conversation: send only the intent (the chat contract's body).
        prepareSendMessagesRequest: ({ messages: sent, trigger, body }) => ({
          body:
            trigger === "regenerate-message"
              ? body?.retryMessageId
                ? { retryMessageId: body.retryMessageId }
                : { continue: true }
              : { text: textOf(sent.at(-1)), discussMode: body?.discussMode === true },
        }),
      }),
    [appId],
  );
  const chat = useChat<SpaceUIMessage>({ id: `space-chat-${appId}`, transport, throttle: 60 });
  const { status, setMessages, clearError } = chat;
  const streaming = status === "submitted" || status === "streaming";

  // ---- history ----

  const storedRef = useRef(stored);
  storedRef.current = stored;

  const loadEarlier = useCallback(async (): Promise<boolean> => {
    const first = storedRef.current[0];
    if (!first) return false;
    setLoadingEarlier(true);
    try {
      const page = await fetchHistory(appId, first.id, CHAT_HISTORY_PAGE_SIZE);
      setStored((loaded) => prependPage(loaded, page.messages));
      storedRef.current = prependPage(storedRef.current, page.messages);
      setHasMore(page.hasMore);
      return page.hasMore;
    } finally {
      setLoadingEarlier(false);
    }
  }, [appId]);

  const loadPrevious = useCallback(() => {
    loadEarlier().catch(() => toast.error(messages.chatHistoryFailed));
  }, [loadEarlier]);

  const loadLatest = useCallback(async () => {
    setPhase("loading");
    refreshHead();
    try {
      const page = await fetchHistory(appId, null, CHAT_HISTORY_PAGE_SIZE);
      storedRef.current = page.messages;
      setStored(page.messages);
      setHasMore(page.hasMore);
      setPhase("ready");
      return page;
    } catch {
      setPhase("failed");
      return null;
    }
  }, [appId, refreshHead]);

  // The first page, then ?messageId=: "If the message is not loaded and more history exists,
  // earlier pages are loaded until found"; then scrolled to, and with preview=true
  // its version previewed.
  const { messageId: targetId, preview: targetPreview } = target;
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const page = await loadLatest();
      if (!page || cancelled || !targetId) {
        if (page && !cancelled) setScrollTarget(null);
        return;
      }
      try {
        let more = page.hasMore;
        while (!storedRef.current.some((m) => m.id === targetId) && more && !cancelled) {
          more = await loadEarlier();
        }
      } catch {
        if (!cancelled)
          toast.error(targetPreview ? messages.previewMessageFailed : messages.chatHistoryFailed);
        return;
      }
      if (cancelled) return;
      const found = storedRef.current.find((m) => m.id === targetId);
      if (!found) {
        toast.error(messages.messageNotInHistory);
        return;
      }
      setHighlightId(found.id);
      setScrollTarget({ id: found.id, nonce: Date.now() });
      if (targetPreview) {
        const versionId = annotation(found).versionId;
        if (!versionId) toast.error(messages.previewNoVersion);
        else if (versionId !== currentVersionId(storedRef.current)) setPreviewVersionId(versionId);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [loadLatest, loadEarlier, targetId, targetPreview]);

  // ---- the streamed answer ----

  const live = useMemo(() => chat.messages.filter((m) => !m.metadata?.anchor), [chat.messages]);
  const liveAnswer = live.findLast((m) => m.role === "assistant");
  const answerMeta = liveAnswer?.metadata;
  const removedIds = answerMeta?.removedMessageIds;

  /**
   * The answer ended (or was refused): read the stored conversation again and drop the streamed
   * copy. A stopped answer may still be 'streaming' for a moment on the server, so the page is
   * read again until it has ended.
   */
  const settle = useCallback(async () => {
    const liveMessages = chat.messages.filter((m) => !m.metadata?.anchor);
    const answer = liveMessages.findLast((m) => m.role === "assistant");
    const refusal = refusalOf(chat.error);
    if (!answer) {
      // Refused before any answer began (busy, not configured, only the last message...):
      // nothing was stored; the text goes back into the composer.
      if (chat.error) toast.error(refusal?.message ?? messages.chatAssistantFailed);
      // The builder's AI requests are spent: the plan that allows more is offered.
      if (refusal?.upgradeReason) openUpgradeDialog({ reason: refusal.upgradeReason, appId });
      const draft = textOf(liveMessages.findLast((m) => m.role === "user"));
      if (draft) setReturnedDraft({ text: draft, nonce: Date.now() });
      setMessages([]);
      clearError();
      return;
    }
    const meta = answer.metadata;
    const answerId = meta?.messageId ?? answer.id;
    const removed = new Set(meta?.removedMessageIds ?? []);
    setSettling(true);
    try {
      let page = await fetchHistory(appId, null, CHAT_HISTORY_PAGE_SIZE);
      for (let i = 0; i < SETTLE_POLLS; i++) {
        const mine = page.messages.find((m) => m.id === answerId);
        if (!mine || annotation(mine).status !== "streaming") break;
        await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
        page = await fetchHistory(appId, null, CHAT_HISTORY_PAGE_SIZE);
      }
      setStored((loaded) =>
        upsertMessages(
          loaded.filter((m) => !removed.has(m.id)),
          page.messages,
        ),
      );
    } catch {
      // The history could not be read: keep what was streamed, as it was shown.
      const now = new Date().toISOString();
      setStored((loaded) =>
        upsertMessages(
          loaded.filter((m) => !removed.has(m.id)),
          liveMessages.map((m) => liveView(m, meta, now)),
        ),
      );
    } finally {
      setMessages([]);
      clearError();
      setSettling(false);
      setPreviewVersionId(null);
      refreshHead();
    }
  }, [appId, chat.messages, chat.error, setMessages, clearError, refreshHead]);

  const settleRef = useRef(settle);
  settleRef.current = settle;
  const wasStreaming = useRef(false);
  useEffect(() => {
    if (streaming) wasStreaming.current = true;
    else if (wasStreaming.current) {
      wasStreaming.current = false;
      void settleRef.current();
    }
  }, [streaming]);

  /** An answer of another tab (or one whose server went away) is still being written. */
  const storedStreaming = stored.some((m) => annotation(m).status === "streaming");
  const busy = streaming || settling || versionBusy;

  /** Sends a message; false when the chat is busy ("A request while one is running is refused"). */
  const send = useCallback(
    (text: string, discussMode: boolean): boolean => {
      if (busy || !text.trim()) return false;
      setPreviewVersionId(null);
      void chat.sendMessage({ text: text.trim() }, { body: { discussMode } });
      return true;
    },
    [busy, chat],
  );

  const regenerate = useCallback(
    (body: { continue: true } | { retryMessageId: string }) => {
      setPreviewVersionId(null);
      setMessages([anchorMessage()]);
      void chat.regenerate({ body });
    },
    [chat, setMessages],
  );

  /** 'Let's keep going': continues the last, truncated answer. */
  const keepGoing = useCallback(() => {
    if (busy) return toast.error(messages.chatBusy);
    regenerate({ continue: true });
  }, [busy, regenerate]);

  /** Retry of a failed answer: "Retry works only on the last user message". */
  const retry = useCallback(
    (answer: ChatMessageView) => {
      if (busy) return toast.error(messages.chatBusy);
      const question = questionOf(storedRef.current, answer.id);
      if (!question || question !== lastUserMessageId(storedRef.current)) {
        return toast.error(messages.chatRetryOnlyLast);
      }
      regenerate({ retryMessageId: question });
    },
    [busy, regenerate],
  );

  // ---- versions ----

  const togglePreview = useCallback((m: ChatMessageView) => {
    const versionId = annotation(m).versionId;
    if (!versionId) return toast.error(messages.previewNoVersion);
    setPreviewVersionId((current) => (current === versionId ? null : versionId));
  }, []);

  const runVersionChange = useCallback(
    async (work: () => Promise<void>, failure: (err: unknown) => string) => {
      setVersionBusy(true);
      try {
        await work();
        setPreviewVersionId(null);
        return true;
      } catch (err) {
        toast.error(failure(err));
        return false;
      } finally {
        setVersionBusy(false);
      }
    },
    [],
  );

  const restore = useCallback(
    (m: ChatMessageView) => {
      const versionId = annotation(m).versionId;
      if (!versionId) return Promise.resolve(false);
      return runVersionChange(
        async () => {
          const answer = await restoreVersion(appId, versionId, m.id);
          setStored((loaded) => upsertMessages(loaded, answer.messages));
          setHeadVersionId(answer.version.id);
          setScrollTarget({ id: answer.messages.at(-1)?.id ?? m.id, nonce: Date.now() });
        },
        // "Failed to restore version"
        () => messages.restoreFailed,
      );
    },
    [appId, runVersionChange],
  );

  /** A merge made a notice and a version: the chat shows them and the preview follows the new head. */
  const merged = useCallback((answer: MergeResult) => {
    setStored((loaded) => upsertMessages(loaded, answer.messages));
    setHeadVersionId(answer.versionId);
    setPreviewVersionId(null);
    const last = answer.messages.at(-1);
    if (last) setScrollTarget({ id: last.id, nonce: Date.now() });
  }, []);

  const undo = useCallback(
    (m: ChatMessageView) => {
      const versionId = annotation(m).versionId;
      if (!versionId) return Promise.resolve(false);
      return runVersionChange(
        async () => {
          const answer = await undoRestore(appId, versionId, m.id);
          setStored((loaded) => upsertMessages(loaded, answer.messages));
          setHeadVersionId(answer.version.id);
          setScrollTarget({ id: answer.messages.at(-1)?.id ?? m.id, nonce: Date.now() });
        },
        // "Failed to undo restore (server text if given)"
        (err) => serverText(err, messages.undoRestoreFailed),
      );
    },
    [appId, runVersionChange],
  );

  const revert = useCallback(
    (m: ChatMessageView) => {
      const versionId = annotation(m).versionId;
      if (!versionId) return Promise.resolve(false);
      return runVersionChange(
        async () => {
          const answer = await revertToVersion(appId, versionId, m.id);
          const removed = new Set(answer.removedMessageIds);
          setStored((loaded) => loaded.filter((x) => !removed.has(x.id)));
          setHeadVersionId(answer.version.id);
          toast.success(messages.chatReverted);
        },
        (err) => serverText(err, messages.chatRevertFailed),
      );
    },
    [appId, runVersionChange],
  );

  /** A rating was stored (or the answer was rated already: read it again). */
  const rated = useCallback(
    (messageId: string, rating: RatingView | null) => {
      if (rating) {
        setStored((loaded) =>
          loaded.map((m) =>
            m.id === messageId
              ? { ...m, annotations: [{ ...annotation(m), rating }] as ChatMessageView["annotations"] }
              : m,
          ),
        );
        return;
      }
      fetchHistory(appId, null, CHAT_HISTORY_PAGE_SIZE)
        .then((page) => setStored((loaded) => upsertMessages(loaded, page.messages)))
        .catch(() => {});
    },
    [appId],
  );

  // ---- what the view shows ----

  const shown = useMemo(() => {
    const removed = new Set(removedIds ?? []);
    const now = new Date().toISOString();
    const liveViews = live.map((m) => liveView(m, answerMeta, now));
    const liveIds = new Set(liveViews.map((m) => m.id));
    return [...stored.filter((m) => !removed.has(m.id) && !liveIds.has(m.id)), ...liveViews];
  }, [stored, live, answerMeta, removedIds]);

  const liveAnswerId = liveAnswer ? (answerMeta?.messageId ?? liveAnswer.id) : null;
  /** Waiting for the answer's first part: the 'Thinking...' placeholder. */
  const thinking = status === "submitted" || (streaming && !liveAnswer);

  return {
    phase,
    retryLoad: loadLatest,
    messages: shown,
    hasMore,
    loadingEarlier,
    loadPrevious,
    streaming,
    /** The ended answer's stored copy is being read back. */
    settling,
    thinking,
    liveAnswerId,
    busy,
    storedStreaming,
    send,
    stop: chat.stop,
    keepGoing,
    retry,
    previewVersionId,
    setPreviewVersionId,
    togglePreview,
    restore,
    merged,
    undo,
    revert,
    rated,
    /** Reads the current version again (a panel changed the files outside the chat). */
    refreshHead,
    /** The server told the current version (else it is read off the loaded messages). */
    headKnown: headVersionId !== undefined,
    currentVersionId:
      headVersionId !== undefined
        ? headVersionId
        : currentVersionId(shown.filter((m) => annotation(m).status !== "streaming")),
    scrollTarget,
    highlightId,
    returnedDraft,
  };
}

export type SpaceChatState = ReturnType<typeof useSpaceChat>;
