"use client";

import { ArrowUpIcon, Loader2Icon } from "lucide-react";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { LOAD_MORE_THRESHOLD_PX, SCROLL_TO_MESSAGE_DELAY_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { ChatMessageView } from "@/lib/space/views";
import { annotation, canUndoRestore } from "./conversation";
import { type MessageHandlers, MessageItem } from "./message-item";
import type { ScrollTarget } from "./use-space-chat";

/** Within this many px of the bottom, new messages and streamed words keep the list at the bottom. */
const STICK_TO_BOTTOM_PX = 80;

/**
 * The conversation: a log of messages, the latest at the bottom. 'Load previous
 * messages' shows when the list is scrolled within 50 px of its top and earlier messages exist
 * (the scroll position is kept when they arrive); 'This is the start of the conversation' when
 * none do.
 */
export function MessageList({
  appId,
  items,
  hasMore,
  loadingEarlier,
  onLoadPrevious,
  isAdmin,
  liveAnswerId,
  thinking,
  currentVersionId,
  previewVersionId,
  busy,
  highlightId,
  scrollTarget,
  handlers,
}: {
  appId: string;
  items: ChatMessageView[];
  hasMore: boolean;
  loadingEarlier: boolean;
  onLoadPrevious: () => void;
  isAdmin: boolean;
  liveAnswerId: string | null;
  thinking: boolean;
  currentVersionId: string | null;
  previewVersionId: string | null;
  busy: boolean;
  highlightId: string | null;
  scrollTarget: ScrollTarget | null;
  handlers: MessageHandlers;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [nearTop, setNearTop] = useState(false);
  const atBottom = useRef(true);
  // Keeps the view still when earlier messages are put above it.
  const firstId = items[0]?.id;
  const heightBefore = useRef<{ firstId: string | undefined; fromBottom: number } | null>(null);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    setNearTop(el.scrollTop <= LOAD_MORE_THRESHOLD_PX);
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_TO_BOTTOM_PX;
  }, []);

  const loadPrevious = () => {
    const el = scroller.current;
    if (el) heightBefore.current = { firstId, fromBottom: el.scrollHeight - el.scrollTop };
    onLoadPrevious();
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    const before = heightBefore.current;
    if (!el || !before || before.firstId === firstId) return;
    heightBefore.current = null;
    el.scrollTop = el.scrollHeight - before.fromBottom;
    onScroll();
  }, [firstId, onScroll]);

  // New messages and streamed text: follow them while the builder is at the bottom.
  const lastId = items.at(-1)?.id;
  const lastLength = items.at(-1)?.content.length ?? 0;
  const lastParts = items.at(-1)?.parts.length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: these values say the end of the list grew
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && atBottom.current && !scrollTarget) el.scrollTop = el.scrollHeight;
    onScroll();
  }, [lastId, lastLength, lastParts, thinking]);

  // ?messageId=: "Scroll-to-message delay 100 ms"; restores and undos scroll too.
  useEffect(() => {
    if (!scrollTarget) return;
    const timer = setTimeout(() => {
      const el = document.getElementById(`message-${scrollTarget.id}`);
      el?.scrollIntoView({ block: "center" });
      onScroll();
    }, SCROLL_TO_MESSAGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [scrollTarget, onScroll]);

  // A list shorter than its box is "at the top" from the start.
  useEffect(() => {
    onScroll();
  }, [onScroll]);

  const lastIndex = items.length - 1;
  return (
    <div
      ref={scroller}
      onScroll={onScroll}
      className="relative min-h-0 flex-1 overflow-y-auto px-3 py-4 sm:px-4"
      data-testid="chat-scroller"
    >
      {hasMore && nearTop ? (
        <div className="sticky top-0 z-10 mb-3 flex justify-center">
          <Button
            size="sm"
            variant="outline"
            className="shadow-sm"
            onClick={loadPrevious}
            disabled={loadingEarlier}
          >
            {loadingEarlier ? (
              <Loader2Icon aria-hidden className="animate-spin" />
            ) : (
              <ArrowUpIcon aria-hidden />
            )}
            {messages.chatLoadPrevious}
          </Button>
        </div>
      ) : null}
      {!hasMore && items.length > 0 ? (
        <p className="mb-4 text-center text-xs text-muted-foreground">{messages.chatStartOfConversation}</p>
      ) : null}
      {/* role=log: new messages are read as they arrive; only additions, so streamed words are not read one by one. */}
      <div
        role="log"
        aria-label={messages.chatConversation}
        aria-relevant="additions"
        aria-busy={loadingEarlier}
        className="grid gap-4"
      >
        {items.map((m, i) => (
          <MessageItem
            key={m.id}
            appId={appId}
            message={m}
            streaming={m.id === liveAnswerId && annotation(m).status === "streaming"}
            isAdmin={isAdmin}
            isCurrentVersion={!!annotation(m).versionId && annotation(m).versionId === currentVersionId}
            previewing={!!previewVersionId && annotation(m).versionId === previewVersionId}
            canUndoRestore={canUndoRestore(items, m)}
            isLast={i === lastIndex}
            busy={busy}
            highlighted={m.id === highlightId}
            handlers={handlers}
          />
        ))}
        {thinking ? (
          <p className="flex w-fit items-center gap-2 rounded-2xl rounded-bl-sm bg-muted px-3.5 py-2 text-sm text-muted-foreground">
            <Loader2Icon aria-hidden className="size-4 animate-spin" />
            {messages.chatThinking}
          </p>
        ) : null}
      </div>
    </div>
  );
}
