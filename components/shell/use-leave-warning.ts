"use client";

import { useEffect } from "react";
import { messages } from "@/lib/messages";

/** What a click on a link needs to be judged: the parts of the event and of the anchor. */
export type LinkClick = {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  href: string;
  target: string;
  download: boolean;
};

/**
 * Whether a link click would take the user off this page inside the app, so it deserves the
 * unsaved-changes question. Clicks that open a new tab or window, downloads and links to the
 * same page (anchors, the current URL) leave this page alone; other origins unload the page,
 * and the browser's own beforeunload prompt covers them, so asking here too would ask twice.
 */
export function isInAppNavigation(click: LinkClick, currentUrl: string): boolean {
  if (click.defaultPrevented || click.button !== 0) return false;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return false;
  if (click.download) return false;
  if (click.target && click.target.toLowerCase() !== "_self") return false;

  let to: URL;
  let from: URL;
  try {
    to = new URL(click.href, currentUrl);
    from = new URL(currentUrl);
  } catch {
    return false;
  }
  if (to.protocol !== "http:" && to.protocol !== "https:") return false;
  if (to.origin !== from.origin) return false;
  return to.pathname !== from.pathname || to.search !== from.search;
}

/**
 * While `dirty`, asks before the page goes away: the browser's prompt on reload, close and
 * typed URLs, and `messages.unsavedChanges` on in-app links, which client-side routing would
 * otherwise follow without any unload event.
 */
export function useLeavePageWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;

    // A link the user already confirmed may still unload the page (a plain <a>); the browser
    // must not ask a second time. Navigation starts within the click's task, so the pass
    // only lasts until the next one.
    let confirmedUntilNextTask = false;

    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (confirmedUntilNextTask) return;
      event.preventDefault();
      // Older browsers only prompt when returnValue is set.
      event.returnValue = "";
    };

    const onClick = (event: MouseEvent) => {
      const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(anchor instanceof HTMLAnchorElement)) return;
      const click: LinkClick = {
        button: event.button,
        metaKey: event.metaKey,
        ctrlKey: event.ctrlKey,
        shiftKey: event.shiftKey,
        altKey: event.altKey,
        defaultPrevented: event.defaultPrevented,
        href: anchor.href,
        target: anchor.target,
        download: anchor.hasAttribute("download"),
      };
      if (!isInAppNavigation(click, window.location.href)) return;
      if (window.confirm(messages.unsavedChanges)) {
        confirmedUntilNextTask = true;
        setTimeout(() => {
          confirmedUntilNextTask = false;
        }, 0);
        return;
      }
      // Capture phase, so this runs before Next's <Link> handler, which then sees the
      // prevented default and does not route.
      event.preventDefault();
      event.stopPropagation();
    };

    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);
}
