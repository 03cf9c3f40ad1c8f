"use client";

import {
  AlertCircleIcon,
  AlertTriangleIcon,
  CheckIcon,
  ChevronDownIcon,
  CopyIcon,
  EyeIcon,
  FileDiffIcon,
  FilesIcon,
  GitMergeIcon,
  History,
  Loader2Icon,
  MessageCircleIcon,
  RotateCcwIcon,
  StarIcon,
  Undo2Icon,
  UndoDotIcon,
} from "lucide-react";
import { type ComponentProps, memo, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { CHAT_MESSAGE_MAX_WIDTH_PX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { ChatMessageView } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { ActionCard } from "./action-card";
import { usageLine } from "./answer-status";
import { type ContextFile, contextCoverageOf, contextFilesOf } from "./context-files-dialog";
import { annotation, segmentsOf } from "./conversation";
import { useCopied } from "./use-copied";

export type MessageHandlers = {
  onPreview: (m: ChatMessageView) => void;
  onRestore: (m: ChatMessageView) => void;
  onUndoRestore: (m: ChatMessageView) => void;
  onRevert: (m: ChatMessageView) => void;
  onRetry: (m: ChatMessageView) => void;
  onKeepGoing: () => void;
  onRate: (m: ChatMessageView) => void;
  /** The context-files dialog: the files in the answer's prompt. */
  onShowContextFiles: (m: ChatMessageView) => void;
  /** The all-changes diff dialog; refused while the message streams. */
  onViewChanges: (m: ChatMessageView) => void;
};

export type MessageItemProps = {
  /** The app (an import_entities action's card follows its import). */
  appId: string;
  message: ChatMessageView;
  /** The answer being written right now. */
  streaming: boolean;
  isAdmin: boolean;
  /** Its version is the app's current one: "the latest version has no preview". */
  isCurrentVersion: boolean;
  previewing: boolean;
  canUndoRestore: boolean;
  /** The last message of the conversation: 'Let's keep going' shows only there. */
  isLast: boolean;
  /** Another answer or a version change is under way: actions that change the app wait. */
  busy: boolean;
  highlighted: boolean;
  handlers: MessageHandlers;
};

const localDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "");

/** One message of the chat view: a bubble, an answer with its actions, or a restore notice. */
export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  const { message } = props;
  if (
    message.kind === "restore" ||
    message.kind === "undo_restore" ||
    message.kind === "autofix" ||
    message.kind === "merge"
  ) {
    return <SystemNotice {...props} />;
  }
  return message.role === "user" ? <UserMessage {...props} /> : <AssistantMessage {...props} />;
});

function Frame({
  message,
  highlighted,
  align,
  children,
}: {
  message: ChatMessageView;
  highlighted: boolean;
  align: "start" | "end" | "center";
  children: React.ReactNode;
}) {
  return (
    <article
      id={`message-${message.id}`}
      data-message-id={message.id}
      data-role={message.role}
      data-kind={message.kind}
      data-status={annotation(message).status}
      tabIndex={-1}
      className={cn(
        "flex scroll-mt-4 flex-col gap-1.5 rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-ring",
        align === "end" && "items-end",
        align === "center" && "items-center",
        highlighted && "ring-2 ring-ring ring-offset-2 ring-offset-background",
      )}
    >
      {children}
    </article>
  );
}

function UserMessage(props: MessageItemProps) {
  const { message } = props;
  return (
    <Frame message={message} highlighted={props.highlighted} align="end">
      <div
        className="rounded-2xl rounded-br-sm bg-primary px-3.5 py-2 text-sm break-words whitespace-pre-wrap text-primary-foreground"
        style={{ maxWidth: CHAT_MESSAGE_MAX_WIDTH_PX }}
      >
        <span className="sr-only">{messages.chatYou}: </span>
        {message.content}
      </div>
      {props.isAdmin ? <AdminCopy message={message} /> : null}
    </Frame>
  );
}

function AssistantMessage(props: MessageItemProps) {
  const { message, streaming } = props;
  const a = annotation(message);
  const segments = segmentsOf(message);
  const failed = a.status === "failed";
  return (
    <Frame message={message} highlighted={props.highlighted} align="start">
      <div
        className="grid w-full min-w-0 gap-2 rounded-2xl rounded-bl-sm bg-muted px-3.5 py-2.5 text-sm"
        style={{ maxWidth: CHAT_MESSAGE_MAX_WIDTH_PX }}
      >
        <span className="sr-only">{messages.chatAssistant}:</span>
        {segments.length === 0 && streaming ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <Loader2Icon aria-hidden className="size-4 animate-spin" />
            {messages.chatThinking}
          </p>
        ) : null}
        {segments.map((s, i) =>
          s.kind === "text" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: prose parts have no id; their order never changes
            <p key={`t${i}`} className="break-words whitespace-pre-wrap">
              {s.text}
            </p>
          ) : (
            <ActionCard key={s.key} action={s.action} messageStreaming={streaming} appId={props.appId} />
          ),
        )}
        {a.discussModeMetadata.isDiscussMode && !streaming ? (
          <p className="text-xs text-muted-foreground">{messages.chatDiscussBadge}</p>
        ) : null}
        {a.status === "incomplete" && !streaming ? (
          <p className="text-xs text-muted-foreground">{messages.chatAnswerStopped}</p>
        ) : null}
        {a.status === "truncated" && !streaming ? (
          <div className="grid gap-2">
            <p className="text-xs text-muted-foreground">{messages.chatTruncatedNote}</p>
            {props.isLast ? (
              <Button size="sm" className="w-fit" disabled={props.busy} onClick={props.handlers.onKeepGoing}>
                {messages.chatKeepGoing}
              </Button>
            ) : null}
          </div>
        ) : null}
        {failed ? (
          <ErrorCard message={message} onRetry={() => props.handlers.onRetry(message)} busy={props.busy} />
        ) : null}
      </div>
      {!streaming ? (
        <MessageFooter {...props} />
      ) : writesFiles(message) ? (
        // Shown while the answer writes files, so asking for the diff too early gets the spec's answer.
        <div className="flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
          <ViewChangesButton message={message} onViewChanges={props.handlers.onViewChanges} />
        </div>
      ) : null}
    </Frame>
  );
}

/** "A chat error block renders as an expandable error card" with the spec's text and a retry. */
function ErrorCard({
  message,
  onRetry,
  busy,
}: {
  message: ChatMessageView;
  onRetry: () => void;
  busy: boolean;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <div
      className="grid gap-2 rounded-md border border-destructive/50 bg-background p-2.5"
      data-testid="chat-error-card"
    >
      <p className="flex gap-2">
        <AlertCircleIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
        <span>{messages.chatAssistantFailed}</span>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onRetry} disabled={busy}>
          <RotateCcwIcon aria-hidden />
          {messages.chatRetry}
        </Button>
        {message.error ? (
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen((v) => !v)}
          >
            <ChevronDownIcon aria-hidden className={cn("transition-transform", open && "rotate-180")} />
            {messages.chatErrorDetails}
          </Button>
        ) : null}
      </div>
      {open && message.error ? (
        <p id={detailsId} className="text-xs break-words whitespace-pre-wrap text-muted-foreground">
          {message.error}
        </p>
      ) : null}
    </div>
  );
}

function SystemNotice(props: MessageItemProps) {
  const { message } = props;
  const info = annotation(message).systemActionInfo;
  const Icon =
    message.kind === "undo_restore" ? UndoDotIcon : message.kind === "merge" ? GitMergeIcon : History;
  const text =
    message.kind === "restore"
      ? fillTemplate(messages.restoreMessageContent, { date: localDate(info?.restoredVersionDate) })
      : message.kind === "undo_restore" && info?.restoredVersionDate
        ? fillTemplate(messages.undoRestoreMessageContent, { date: localDate(info.restoredVersionDate) })
        : message.content;
  return (
    <Frame message={message} highlighted={props.highlighted} align="center">
      <p className="flex max-w-full items-center gap-2 rounded-full border border-border bg-background px-3 py-1 text-xs text-muted-foreground">
        <Icon aria-hidden className="size-3.5 shrink-0" />
        <span className="min-w-0 break-words">{text}</span>
      </p>
      <MessageFooter {...props} />
    </Frame>
  );
}

/** The version controls, rating and admin extras under an answer or a restore notice. */
function MessageFooter(props: MessageItemProps) {
  const { message, isAdmin, handlers, busy } = props;
  const a = annotation(message);
  const isAnswer = message.role === "assistant" && message.kind === "message" && a.status !== "failed";
  const hasVersion = !!a.versionId;
  const showVersionControls = hasVersion && !props.isCurrentVersion;
  const rated = a.rating;
  const usage = isAdmin ? usageLine(message) : null;
  const contextFiles =
    message.role === "assistant" && message.kind === "message" ? contextFilesOf(message) : null;
  const canViewChanges = hasVersion || (a.status === "streaming" && writesFiles(message));
  if (
    !showVersionControls &&
    !props.canUndoRestore &&
    !isAnswer &&
    !isAdmin &&
    !canViewChanges &&
    !contextFiles
  )
    return null;

  return (
    <div className="grid gap-1 text-xs text-muted-foreground" style={{ maxWidth: CHAT_MESSAGE_MAX_WIDTH_PX }}>
      <div className="flex flex-wrap items-center gap-1">
        {showVersionControls ? (
          <>
            <ActionButton
              variant={props.previewing ? "secondary" : "ghost"}
              aria-pressed={props.previewing}
              title={messages.chatPreviewHint}
              onClick={() => handlers.onPreview(message)}
            >
              <EyeIcon aria-hidden />
              {props.previewing ? messages.versionPreviewing : messages.versionPreview}
            </ActionButton>
            <ActionButton
              title={messages.chatRestoreHint}
              disabled={busy}
              onClick={() => handlers.onRestore(message)}
            >
              <History aria-hidden />
              {messages.chatRestore}
            </ActionButton>
            {message.kind === "message" ? (
              <ActionButton
                title={messages.chatRevertHint}
                disabled={busy}
                onClick={() => handlers.onRevert(message)}
              >
                <Undo2Icon aria-hidden />
                {messages.chatRevert}
              </ActionButton>
            ) : null}
          </>
        ) : null}
        {props.canUndoRestore ? (
          <ActionButton variant="outline" disabled={busy} onClick={() => handlers.onUndoRestore(message)}>
            <UndoDotIcon aria-hidden />
            {messages.chatUndoRestore}
          </ActionButton>
        ) : null}
        {canViewChanges ? (
          <ViewChangesButton message={message} onViewChanges={handlers.onViewChanges} />
        ) : null}
        {contextFiles ? (
          <ContextFilesButton
            message={message}
            files={contextFiles}
            isAdmin={isAdmin}
            onShow={handlers.onShowContextFiles}
          />
        ) : null}
        {isAnswer ? (
          rated ? (
            <span className="inline-flex items-center gap-1 px-2" data-testid="message-rated">
              <StarIcon aria-hidden className="size-3.5 fill-amber-400 text-amber-600 dark:text-amber-400" />
              {fillTemplate(messages.chatRatedScore, { score: rated.score })} · {messages.ratingAlreadyRated}
            </span>
          ) : (
            <ActionButton onClick={() => handlers.onRate(message)}>
              <StarIcon aria-hidden />
              {messages.chatRate}
            </ActionButton>
          )
        ) : null}
        {isAdmin && message.role === "assistant" ? <AdminCopy message={message} /> : null}
      </div>
      {isAdmin && a.versionNumber ? (
        <p data-testid="message-version-line">
          {fillTemplate(messages.versionsNumber, { n: a.versionNumber })}
        </p>
      ) : null}
      {usage ? (
        <p className="flex items-center gap-1" data-testid="message-usage">
          <MessageCircleIcon aria-hidden className="size-3 shrink-0" />
          {usage}
        </p>
      ) : null}
    </div>
  );
}

/** The answer writes files (its version comes when it ends). */
const writesFiles = (m: ChatMessageView) => m.actions.some((a) => !!(a as { file?: unknown }).file);

function ViewChangesButton({
  message,
  onViewChanges,
}: {
  message: ChatMessageView;
  onViewChanges: (m: ChatMessageView) => void;
}) {
  return (
    <ActionButton onClick={() => onViewChanges(message)} data-testid="message-view-changes">
      <FileDiffIcon aria-hidden />
      {messages.chatViewChanges}
    </ActionButton>
  );
}

/**
 * Opens the context-files dialog. Admins see the "context file counts" on it: the files
 * in the prompt of all the app's files, and how many were left out (the missing-file warning's count).
 */
function ContextFilesButton({
  message,
  files,
  isAdmin,
  onShow,
}: {
  message: ChatMessageView;
  files: ContextFile[];
  isAdmin: boolean;
  onShow: (m: ChatMessageView) => void;
}) {
  const coverage = isAdmin ? contextCoverageOf(message) : null;
  const label = !isAdmin
    ? messages.chatFilesUsed
    : coverage
      ? fillTemplate(messages.chatFilesUsedOf, { n: coverage.inPrompt, m: coverage.total })
      : fillTemplate(messages.chatFilesUsedCount, { n: files.length });
  const leftOut = coverage?.missing.length ?? 0;
  return (
    <ActionButton onClick={() => onShow(message)} data-testid="message-context-files">
      <FilesIcon aria-hidden />
      {label}
      {leftOut > 0 ? (
        <span
          className="inline-flex items-center gap-0.5 text-amber-800 dark:text-amber-300"
          data-testid="message-context-files-left-out"
        >
          <AlertTriangleIcon aria-hidden className="size-3.5" />
          {fillTemplate(messages.chatFilesLeftOut, { n: leftOut })}
        </span>
      ) : null}
    </ActionButton>
  );
}

/** The copy-message button in chat (admins only), with the copied indicator. */
function AdminCopy({ message }: { message: ChatMessageView }) {
  const [copied, copy] = useCopied();
  return (
    <ActionButton onClick={() => copy(message.content)}>
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      {copied ? messages.chatCopied : messages.chatCopyMessage}
    </ActionButton>
  );
}

/** The small buttons under a message. */
function ActionButton({ variant = "ghost", className, ...props }: ComponentProps<typeof Button>) {
  return <Button size="sm" variant={variant} className={cn("h-7 px-2", className)} {...props} />;
}
