"use client";

import { SendHorizontalIcon, SquareIcon } from "lucide-react";
import { type Ref, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { CHAT_MESSAGE_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";

/**
 * Where the builder writes to the assistant: Enter sends, Shift+Enter starts a new line; Stop
 * while an answer streams; discuss mode (the assistant answers without changing files). A
 * message while the chat is busy is refused here with the reason, and the text stays.
 */
export function Composer({
  value,
  onChange,
  onSend,
  onStop,
  streaming,
  busy,
  discussMode,
  onDiscussMode,
  textareaRef,
}: {
  value: string;
  onChange: (value: string) => void;
  /** False when the chat refused (busy). */
  onSend: () => boolean;
  onStop: () => void;
  streaming: boolean;
  busy: boolean;
  discussMode: boolean;
  onDiscussMode: (on: boolean) => void;
  textareaRef: Ref<HTMLTextAreaElement>;
}) {
  const id = useId();
  const [refused, setRefused] = useState(false);

  const send = () => {
    if (!value.trim()) return;
    const sent = onSend();
    setRefused(!sent && busy);
  };

  return (
    <form
      className="grid gap-2 border-t border-border bg-background p-3"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <Label htmlFor={`${id}-text`} className="sr-only">
        {messages.chatComposerLabel}
      </Label>
      <textarea
        ref={textareaRef}
        id={`${id}-text`}
        value={value}
        rows={3}
        maxLength={CHAT_MESSAGE_MAX}
        placeholder={messages.chatComposerPlaceholder}
        aria-describedby={`${id}-hint${refused ? ` ${id}-refused` : ""}`}
        onChange={(e) => {
          onChange(e.target.value);
          setRefused(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }}
        className="max-h-48 min-h-16 w-full resize-y rounded-md border border-border bg-transparent px-3 py-2 text-sm shadow-xs placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
      <p id={`${id}-hint`} className="sr-only">
        {messages.chatComposerHint}
      </p>
      {refused ? (
        <p id={`${id}-refused`} role="status" className="text-xs text-muted-foreground">
          {messages.chatBusy}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <Switch
            id={`${id}-discuss`}
            checked={discussMode}
            onCheckedChange={onDiscussMode}
            aria-describedby={`${id}-discuss-hint`}
          />
          <Label htmlFor={`${id}-discuss`} className="text-xs">
            {messages.chatDiscussMode}
          </Label>
          <span id={`${id}-discuss-hint`} className="sr-only">
            {messages.chatDiscussModeHint}
          </span>
        </div>
        {streaming ? (
          <Button type="button" size="sm" variant="outline" onClick={onStop}>
            <SquareIcon aria-hidden className="fill-current" />
            {messages.chatStop}
          </Button>
        ) : null}
        <Button type="submit" size="sm" disabled={!value.trim()} aria-disabled={busy || undefined}>
          <SendHorizontalIcon aria-hidden />
          {messages.chatSend}
        </Button>
      </div>
    </form>
  );
}
