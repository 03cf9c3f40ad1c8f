"use client";

import {
  CheckIcon,
  ChevronDownIcon,
  CopyIcon,
  DatabaseIcon,
  FileCode2Icon,
  FilePenIcon,
  FilePlusIcon,
  FileXIcon,
  KeyRoundIcon,
  Loader2Icon,
  type LucideIcon,
  ScissorsIcon,
  TableIcon,
  UploadIcon,
} from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { type MessageKey, messages } from "@/lib/messages";
import { requestedSecrets } from "@/lib/secrets/requests";
import { ACTION_TITLES } from "@/lib/space/chat-schemas";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { actionStatus, type ShownAction } from "./conversation";
import { ImportOutcome } from "./import-outcome";
import { SecretsRequest, SecretsStatus } from "./secrets-request";
import { useCopied } from "./use-copied";

const icons: Record<string, LucideIcon> = {
  add_file: FilePlusIcon,
  edit_file: FilePenIcon,
  partial_edit: FilePenIcon,
  delete_file: FileXIcon,
  add_entity: DatabaseIcon,
  edit_entity: DatabaseIcon,
  import_entities: UploadIcon,
  request_secrets: KeyRoundIcon,
  insert_entity_records: TableIcon,
};

function titleOf(action: ShownAction): string {
  if (action.title) return action.title;
  const key = (ACTION_TITLES as Record<string, MessageKey | undefined>)[action.type];
  return key
    ? fillTemplate(messages[key], { file: action.file ?? "", name: action.name ?? "" })
    : action.type;
}

const statusText = {
  streaming: messages.chatActionStreaming,
  complete: messages.chatActionComplete,
  truncated: messages.chatActionTruncated,
  incomplete: messages.chatActionIncomplete,
} as const;

/**
 * One action of an answer: what it does and to which file, its state
 * as it streams (streaming or incomplete, complete, truncated), and its content on
 * demand, with a copy button.
 */
export function ActionCard({
  action,
  messageStreaming,
  appId,
}: {
  action: ShownAction;
  messageStreaming: boolean;
  /** The app whose imports an import_entities action's card follows. */
  appId?: string;
}) {
  const [open, setOpen] = useState(false);
  const [copied, copy] = useCopied();
  const contentId = useId();
  const status = actionStatus(action, messageStreaming);
  const Icon = icons[action.type] ?? FileCode2Icon;
  const title = titleOf(action);
  const hasContent = !!action.content;
  // A complete action the answer stored without changing files (discuss mode, import, secrets).
  const notApplied = status === "complete" && action.applied === false;
  // A complete request for secrets: its card says whether the app holds them, and asks for them.
  const secretsRequest =
    action.type === "request_secrets" && status === "complete" && appId
      ? requestedSecrets(action.data)
      : null;

  return (
    <div
      className="min-w-0 rounded-md border border-border bg-background text-foreground"
      data-action-status={status}
    >
      <div className="flex items-center gap-2 px-2.5 py-1.5">
        <Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-xs font-medium" title={title}>
            {title}
          </span>
          {action.file && !title.includes(action.file) ? (
            <span className="block truncate font-mono text-xs text-muted-foreground">{action.file}</span>
          ) : null}
        </span>
        {secretsRequest && appId ? (
          <SecretsStatus appId={appId} requested={secretsRequest} />
        ) : (
          <span
            className={cn(
              "inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs",
              status === "complete" &&
                "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
              status === "streaming" && "bg-muted text-muted-foreground",
              status === "truncated" && "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
              status === "incomplete" && "bg-muted text-muted-foreground",
            )}
          >
            {status === "streaming" ? <Loader2Icon aria-hidden className="size-3 animate-spin" /> : null}
            {status === "complete" ? <CheckIcon aria-hidden className="size-3" /> : null}
            {status === "truncated" ? <ScissorsIcon aria-hidden className="size-3" /> : null}
            {notApplied ? messages.chatActionNotApplied : statusText[status]}
          </span>
        )}
        {hasContent ? (
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-expanded={open}
            aria-controls={contentId}
            aria-label={`${open ? messages.chatActionHide : messages.chatActionShow}: ${title}`}
            title={open ? messages.chatActionHide : messages.chatActionShow}
            onClick={() => setOpen((v) => !v)}
          >
            <ChevronDownIcon aria-hidden className={cn("transition-transform", open && "rotate-180")} />
          </Button>
        ) : null}
      </div>
      {action.importId && action.name && appId ? (
        <ImportOutcome appId={appId} entity={action.name} importId={action.importId} />
      ) : null}
      {secretsRequest && appId ? <SecretsRequest appId={appId} requested={secretsRequest} /> : null}
      {action.importProblem ? (
        <p className="border-t border-border px-2.5 py-1.5 text-xs text-destructive">
          {action.importProblem}
        </p>
      ) : null}
      {hasContent && open ? (
        <div id={contentId} className="relative border-t border-border p-1.5">
          <pre
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block is reached by keyboard to scroll it
            tabIndex={0}
            className="max-h-64 overflow-auto rounded bg-muted p-2 pr-16 font-mono text-xs leading-relaxed"
          >
            {action.content}
          </pre>
          <Button
            variant="outline"
            size="sm"
            className="absolute top-2.5 right-3 h-7 px-2"
            onClick={() => copy(action.content ?? "")}
          >
            {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
            {copied ? messages.chatCopied : messages.chatCopyCode}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
