"use client";

import { RotateCcwIcon } from "lucide-react";
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { messages } from "@/lib/messages";
import type { ChatMessageView } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";
import { answerEndAnnouncement, lastAnswerStatus } from "./answer-status";
import { ChangesDialog } from "./changes-dialog";
import { Composer } from "./composer";
import { ContextFilesDialog } from "./context-files-dialog";
import { annotation, countLaterMessages } from "./conversation";
import type { MessageHandlers } from "./message-item";
import { MessageList } from "./message-list";
import { RatingDialog } from "./rating-dialog";
import type { SpaceChatState } from "./use-space-chat";

/**
 * The chat column of a space app's editor: the conversation, the
 * composer, and the dialogs of its messages (rating, revert). The state lives in useSpaceChat,
 * shared with the preview beside it.
 */
export function SpaceChat({
  appId,
  isAdmin,
  chat,
  draft,
  onDraft,
  composerRef,
}: {
  appId: string;
  isAdmin: boolean;
  chat: SpaceChatState;
  draft: string;
  onDraft: (text: string) => void;
  composerRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const [discussMode, setDiscussMode] = useState(false);
  const [rating, setRating] = useState<ChatMessageView | null>(null);
  const [reverting, setReverting] = useState<ChatMessageView | null>(null);
  const [contextOf, setContextOf] = useState<ChatMessageView | null>(null);
  const [changesOf, setChangesOf] = useState<ChatMessageView | null>(null);
  const [announcement, setAnnouncement] = useState("");

  // "focus returns to the composer" after an action whose button goes away with it.
  const focusComposer = useCallback(() => {
    requestAnimationFrame(() => composerRef.current?.focus());
  }, [composerRef]);

  // A refused message comes back into the composer.
  const { returnedDraft } = chat;
  useEffect(() => {
    if (returnedDraft) {
      onDraft(returnedDraft.text);
      focusComposer();
    }
  }, [returnedDraft, onDraft, focusComposer]);

  // Screen readers hear that an answer started and how it ended (once the stored answer is read
  // back: answered, failed, stopped), not each streamed word.
  const answering = chat.streaming || chat.settling;
  const wasAnswering = useRef(false);
  const stopPressed = useRef(false);
  const conversation = chat.messages;
  useEffect(() => {
    if (answering && !wasAnswering.current) setAnnouncement(messages.chatAnswerStreaming);
    if (!answering && wasAnswering.current) {
      setAnnouncement(answerEndAnnouncement(lastAnswerStatus(conversation), stopPressed.current));
      stopPressed.current = false;
    }
    wasAnswering.current = answering;
  }, [answering, conversation]);

  const { togglePreview, restore, undo, retry, keepGoing } = chat;
  const handlers: MessageHandlers = useMemo(
    () => ({
      onPreview: togglePreview,
      onRestore: (m) => void restore(m).then((ok) => ok && focusComposer()),
      onUndoRestore: (m) => void undo(m).then((ok) => ok && focusComposer()),
      onRevert: (m) => setReverting(m),
      onRetry: (m) => {
        retry(m);
        focusComposer();
      },
      onKeepGoing: () => {
        keepGoing();
        focusComposer();
      },
      onRate: (m) => setRating(m),
      onShowContextFiles: (m) => setContextOf(m),
      onViewChanges: (m) => {
        // "Diff view cannot open while streaming": its version does not exist yet.
        const { status, versionId } = annotation(m);
        if (status === "streaming" || !versionId) toast.info(messages.diffWaitForChanges);
        else setChangesOf(m);
      },
    }),
    [togglePreview, restore, undo, retry, keepGoing, focusComposer],
  );

  const send = () => {
    const sent = chat.send(draft, discussMode);
    if (sent) onDraft("");
    return sent;
  };

  let body: React.ReactNode;
  if (chat.phase === "loading") {
    body = (
      <div className="grid flex-1 content-start gap-4 p-4" role="status">
        <span className="sr-only">{messages.chatLoadingHistory}</span>
        <Skeleton className="ml-auto h-10 w-2/3" />
        <Skeleton className="h-24 w-3/4" />
        <Skeleton className="ml-auto h-10 w-1/2" />
      </div>
    );
  } else if (chat.phase === "failed") {
    body = (
      <div
        className="grid flex-1 content-center justify-items-center gap-3 p-4 text-center text-sm"
        role="alert"
      >
        <p>{messages.chatHistoryFailed}</p>
        <Button variant="outline" size="sm" onClick={() => void chat.retryLoad()}>
          <RotateCcwIcon aria-hidden />
          {messages.retry}
        </Button>
      </div>
    );
  } else if (chat.messages.length === 0 && !chat.thinking) {
    body = (
      <div className="flex-1 content-center overflow-y-auto p-4">
        <EmptyState title={messages.chatEmptyTitle} text={messages.chatEmptyHint} />
      </div>
    );
  } else {
    body = (
      <MessageList
        appId={appId}
        items={chat.messages}
        hasMore={chat.hasMore}
        loadingEarlier={chat.loadingEarlier}
        onLoadPrevious={chat.loadPrevious}
        isAdmin={isAdmin}
        liveAnswerId={chat.liveAnswerId}
        thinking={chat.thinking}
        currentVersionId={chat.currentVersionId}
        previewVersionId={chat.previewVersionId}
        busy={chat.busy || chat.storedStreaming}
        highlightId={chat.highlightId}
        scrollTarget={chat.scrollTarget}
        handlers={handlers}
      />
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {body}
      <p className="sr-only" role="status">
        {announcement}
      </p>
      <Composer
        value={draft}
        onChange={onDraft}
        onSend={send}
        onStop={() => {
          stopPressed.current = true;
          void chat.stop();
          focusComposer();
        }}
        streaming={chat.streaming}
        busy={chat.busy || chat.storedStreaming}
        discussMode={discussMode}
        onDiscussMode={setDiscussMode}
        textareaRef={composerRef}
      />
      {rating ? (
        <RatingDialog
          appId={appId}
          messageId={rating.id}
          open
          onOpenChange={(open) => {
            if (!open) setRating(null);
          }}
          onRated={(r) => {
            chat.rated(rating.id, r);
            // The Rate button that opened the dialog is gone (the answer shows 'already rated').
            setTimeout(focusComposer, 0);
          }}
        />
      ) : null}
      {contextOf ? (
        <ContextFilesDialog
          message={contextOf}
          isAdmin={isAdmin}
          onOpenChange={(open) => {
            if (!open) setContextOf(null);
          }}
        />
      ) : null}
      {changesOf && annotation(changesOf).versionId ? (
        <ChangesDialog
          appId={appId}
          versionId={annotation(changesOf).versionId!}
          onOpenChange={(open) => {
            if (!open) setChangesOf(null);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={!!reverting}
        onOpenChange={(open) => {
          if (!open) setReverting(null);
        }}
        title={messages.chatRevertTitle}
        description={
          reverting
            ? fillTemplate(messages.chatRevertText, { n: countLaterMessages(chat.messages, reverting.id) })
            : undefined
        }
        confirmLabel={messages.chatRevert}
        destructive
        onConfirm={() => {
          const m = reverting;
          setReverting(null);
          if (m) void chat.revert(m).then(() => focusComposer());
        }}
      />
    </div>
  );
}
