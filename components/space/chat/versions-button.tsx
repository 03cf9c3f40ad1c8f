"use client";

import { HistoryIcon } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { CompareDialog } from "./compare-dialog";
import type { SpaceChatState } from "./use-space-chat";
import { VersionsDialog } from "./versions-dialog";

/** How long a message gone to may take to be found (earlier pages loaded first) before focus gives up on it. */
const MESSAGE_WAIT_MS = 15_000;

/**
 * The Versions button of the space editor and its dialog. Its actions are the chat's own: Preview
 * sets the chat's previewed version; Go to message is the chat view's ?messageId= (its
 * earlier pages are loaded until it is found, then it is scrolled to and highlighted), and focus
 * moves to that message once the chat has found it.
 */
export function VersionsButton({ appId, chat }: { appId: string; chat: SpaceChatState }) {
  const [open, setOpen] = useState(false);
  /** The version compared with the current files (its dialog replaces this one). */
  const [comparing, setComparing] = useState<string | null>(null);
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const opener = useRef<HTMLButtonElement>(null);
  /** The message gone to: focus goes there (not back to this button) when the chat has found it. */
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  /** The same, for the dialog's closing, which runs with the props of its last render. */
  const goingToMessage = useRef(false);
  const { setPreviewVersionId, highlightId, phase } = chat;

  const goToMessage = useCallback(
    (messageId: string) => {
      goingToMessage.current = true;
      setFocusTarget(messageId);
      setOpen(false);
      if (params.get("messageId") === messageId && params.get("preview") !== "true") {
        // Already the chat's target: it does not look for it again; bring it into view here.
        document.getElementById(`message-${messageId}`)?.scrollIntoView({ block: "center" });
        return;
      }
      const next = new URLSearchParams(params);
      next.delete("preview");
      next.set("messageId", messageId);
      router.replace(`${pathname}?${next}`, { scroll: false });
    },
    [params, pathname, router],
  );

  // The chat highlights the message it found; a message not found (its toast says so) sends focus back here.
  useEffect(() => {
    if (!focusTarget) return;
    const el =
      phase === "ready" && highlightId === focusTarget && document.getElementById(`message-${focusTarget}`);
    if (el) {
      el.focus({ preventScroll: true });
      setFocusTarget(null);
      return;
    }
    const timer = setTimeout(() => {
      setFocusTarget(null);
      opener.current?.focus();
    }, MESSAGE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [focusTarget, highlightId, phase]);

  const onCloseAutoFocus = useCallback((event: Event) => {
    // The dialog is mounted only while open, and Radix then leaves focus nowhere: back to the
    // button, unless a message takes it.
    event.preventDefault();
    if (!goingToMessage.current) opener.current?.focus();
    goingToMessage.current = false;
  }, []);

  return (
    <>
      <Button
        ref={opener}
        variant="outline"
        size="sm"
        className="px-2"
        aria-haspopup="dialog"
        title={messages.versionsButton}
        onClick={() => setOpen(true)}
        data-testid="versions-button"
      >
        <HistoryIcon aria-hidden />
        {/* Beside the narrow chat column of wide screens, the icon alone keeps the menu on one row. */}
        <span className="lg:sr-only">{messages.versionsButton}</span>
      </Button>
      {open ? (
        <VersionsDialog
          appId={appId}
          previewVersionId={chat.previewVersionId}
          onPreview={(versionId) => {
            setPreviewVersionId(versionId);
            setOpen(false);
          }}
          onGoToMessage={goToMessage}
          onCompare={(versionId) => {
            // The compare dialog takes focus; when it closes, focus returns to this button.
            goingToMessage.current = true;
            setOpen(false);
            setComparing(versionId);
          }}
          onOpenChange={setOpen}
          onCloseAutoFocus={onCloseAutoFocus}
        />
      ) : null}
      {comparing ? (
        <CompareDialog
          appId={appId}
          source={{ kind: "version", versionId: comparing }}
          onMerged={chat.merged}
          onOpenChange={(o) => {
            if (o) return;
            setComparing(null);
            opener.current?.focus();
          }}
        />
      ) : null}
    </>
  );
}
