"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { type ContextItemView, fetchContextItems, type StatusEvent } from "./data-sources-api";
import { statusDisplay } from "./item-format";

export type ItemsState =
  | { status: "loading" }
  | { status: "error" }
  | { status: "ready"; items: ContextItemView[]; hasReachedDataLimit: boolean };

// Waits before a stream the browser gave up on (a 401 after a restart, a proxy's 502) is opened
// again; the browser's own reconnection handles plain drops.
const RECONNECT_MIN_MS = 2_000;
const RECONNECT_MAX_MS = 30_000;
// An event for an id the list does not have triggers at most this many refetches: a job still
// reporting on an item deleted here must not make the panel fetch forever.
const UNKNOWN_ID_REFETCHES = 2;

// The order an item goes through; a list read while events arrived never takes one back.
const progress = (status: string) =>
  status === "running" ? 1 : ["unsynced", "pending"].includes(status) ? 0 : 2;

function applyEvent(items: ContextItemView[], ev: StatusEvent, forwardOnly: boolean): ContextItemView[] {
  return items.map((item) =>
    item.id === ev.id && (!forwardOnly || progress(ev.status) >= progress(item.status))
      ? { ...item, status: ev.status, error: ev.error, lastSyncedAt: ev.lastSyncedAt ?? item.lastSyncedAt }
      : item,
  );
}

/**
 * The app's data sources, kept live: GET /api/context/items once, then one EventSource on
 * /api/context/events that moves each item's status on as workers report (Pending, Syncing...,
 * Synced) without a reload. An event about an item the list does not know (added in another
 * tab) refetches the list; so does every reconnection, since changes made while the stream was
 * down are not sent again.
 */
export function useContextItems(appId: string) {
  const [state, setState] = useState<ItemsState>({ status: "loading" });
  // A sentence for the polite live region when a status moves on.
  const [announcement, setAnnouncement] = useState("");
  const itemsRef = useRef<ContextItemView[] | null>(null);
  const fetchSeq = useRef(0);
  // Events that arrive while a list is on its way: applied on top of it (never backwards).
  const heldEvents = useRef<StatusEvent[] | null>(null);
  const unknownTries = useRef(new Map<string, number>());
  // The plan's limit as the last list read said, and that read while it is on its way: a change
  // made here (a delete) is shown at once, but whether another item is allowed is the server's word.
  const limitReached = useRef(false);
  const loading = useRef<Promise<boolean> | null>(null);

  /** Counts a refetch for an unknown id; false once it has had its share. */
  const tryUnknown = useCallback((id: string) => {
    const tries = unknownTries.current.get(id) ?? 0;
    if (tries >= UNKNOWN_ID_REFETCHES) return false;
    unknownTries.current.set(id, tries + 1);
    return true;
  }, []);

  const commit = useCallback((next: ItemsState) => {
    itemsRef.current = next.status === "ready" ? next.items : itemsRef.current;
    if (next.status === "ready") limitReached.current = next.hasReachedDataLimit;
    setState(next);
  }, []);

  const read = useCallback(
    async (mode: "initial" | "background" = "background"): Promise<boolean> => {
      const seq = ++fetchSeq.current;
      heldEvents.current ??= [];
      if (mode === "initial") setState({ status: "loading" });
      try {
        const answer = await fetchContextItems(appId);
        if (seq !== fetchSeq.current) return true;
        let items = answer.contextItems;
        const held = heldEvents.current ?? [];
        heldEvents.current = null;
        const known = new Set(items.map((i) => i.id));
        for (const ev of held) if (known.has(ev.id)) items = applyEvent(items, ev, true);
        commit({ status: "ready", items, hasReachedDataLimit: answer.hasReachedDataLimit });
        // An id still missing: the list may have been read just before it was added.
        const missingIds = new Set(held.map((ev) => ev.id).filter((id) => !known.has(id)));
        const retried = new Set([...missingIds].filter(tryUnknown));
        const missing = held.filter((ev) => retried.has(ev.id));
        if (missing.length > 0) {
          heldEvents.current = missing;
          void read();
        }
        return true;
      } catch {
        if (seq !== fetchSeq.current) return false;
        heldEvents.current = null;
        // A list already shown stays; only a first load that failed shows the error and a retry.
        if (!itemsRef.current) setState({ status: "error" });
        return false;
      }
    },
    [appId, commit, tryUnknown],
  );

  const reload = useCallback(
    (mode: "initial" | "background" = "background"): Promise<boolean> => {
      const done = read(mode);
      loading.current = done;
      void done.finally(() => {
        if (loading.current === done) loading.current = null;
      });
      return done;
    },
    [read],
  );

  /** Whether the plan allows another item, by the list being read now if there is one. */
  const limitReachedNow = useCallback(async () => {
    while (loading.current) await loading.current;
    return limitReached.current;
  }, []);

  const onStatus = useCallback(
    (ev: StatusEvent) => {
      if (heldEvents.current) heldEvents.current.push(ev);
      const items = itemsRef.current;
      if (!items) return;
      const item = items.find((i) => i.id === ev.id);
      if (!item) {
        if (heldEvents.current || !tryUnknown(ev.id)) return;
        heldEvents.current = [ev];
        void reload();
        return;
      }
      if (heldEvents.current) return;
      if (item.status !== ev.status) {
        setAnnouncement(
          fillTemplate(messages.dataSourceStatusChanged, {
            name: item.name,
            status: statusDisplay(ev.status).label,
          }),
        );
      }
      setState((s) => {
        if (s.status !== "ready") return s;
        const next = { ...s, items: applyEvent(s.items, ev, false) };
        itemsRef.current = next.items;
        return next;
      });
    },
    [reload, tryUnknown],
  );

  useEffect(() => {
    itemsRef.current = null;
    unknownTries.current.clear();
    void reload("initial");
  }, [reload]);

  useEffect(() => {
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let opened = false;
    let delay = RECONNECT_MIN_MS;
    let stopped = false;
    const connect = () => {
      source = new EventSource(`/api/context/events?appId=${encodeURIComponent(appId)}`);
      source.addEventListener("open", () => {
        // What changed while the stream was down is not sent again: read the list.
        if (opened) void reload();
        opened = true;
        delay = RECONNECT_MIN_MS;
      });
      source.addEventListener("status", (e) => {
        try {
          const ev = JSON.parse((e as MessageEvent<string>).data) as StatusEvent;
          if (typeof ev?.id === "string" && typeof ev.status === "string") onStatus(ev);
        } catch {
          // a malformed event carries nothing to show
        }
      });
      source.addEventListener("error", () => {
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        source.close();
        timer = setTimeout(connect, delay);
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [appId, onStatus, reload]);

  /** Changes the list here (an item added, renamed, removed) before the server's list is read again. */
  const update = useCallback((change: (items: ContextItemView[]) => ContextItemView[]) => {
    setState((s) => {
      if (s.status !== "ready") return s;
      const next = { ...s, items: change(s.items) };
      itemsRef.current = next.items;
      return next;
    });
  }, []);

  return { state, reload, update, announcement, limitReachedNow };
}
