"use client";

import { BotIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { messages } from "@/lib/messages";
import { activateChatAssistant, type ChatAssistantState } from "./chat-api";

/**
 * The app's chat assistant (status active or draft): a button with its status that
 * opens the 'Activate Your Chat Assitant!' modal. "Chat assistant status: draft or active;
 * applied optimistically and rolled back if the call fails", with the four messages
 * of activating and deactivating.
 */
export function ChatAssistantControl({
  appId,
  initial,
}: {
  appId: string;
  initial: ChatAssistantState | null;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(initial?.isActive ?? false);
  const [pending, setPending] = useState(false);
  const id = useId();

  const change = async (next: boolean) => {
    const before = active;
    setActive(next);
    setPending(true);
    try {
      const state = await activateChatAssistant(appId, next);
      setActive(state.isActive);
      toast.success(next ? messages.chatActivated : messages.chatDeactivated);
    } catch {
      setActive(before);
      toast.error(next ? messages.chatActivateFailed : messages.chatDeactivateFailed);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="px-2"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        title={messages.chatAssistantButton}
      >
        <BotIcon aria-hidden />
        <span className="sr-only">{messages.chatAssistantButton}</span>
        <Badge tone={active ? "positive" : "muted"}>
          {active ? messages.chatAssistantActive : messages.chatAssistantDraft}
        </Badge>
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent size="sm">
          <DialogHeader>
            <DialogTitle>{messages.chatActivateTitle}</DialogTitle>
            <DialogDescription>{messages.chatActivateText}</DialogDescription>
          </DialogHeader>
          <div className="flex items-center justify-between gap-4 rounded-md border border-border px-3 py-2">
            <Label htmlFor={`${id}-active`}>{messages.chatActivateSwitch}</Label>
            <Switch
              id={`${id}-active`}
              checked={active}
              disabled={pending}
              onCheckedChange={(checked) => void change(checked)}
            />
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
