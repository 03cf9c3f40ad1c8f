"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/auth/api-client";
import { messages } from "@/lib/messages";
import type { EntityRecordPage, EntityRecordView } from "@/lib/space/entity-records";

// The records of an entity as the grid loads them: the first page, then the next one each time the
// grid nears the end of what it has (loading on scroll), in the asked sort. A new sort reloads from
// the first page and keeps the rows shown until it answers (the grid, its focus and its menus stay).

export type RecordsState =
  | { phase: "loading" }
  | { phase: "error" }
  | {
      phase: "ready";
      records: EntityRecordView[];
      total: number;
      nextCursor: string | null;
      /** The sort the rows (and the cursor) are of: until a new sort's first page, the one before. */
      sort: string | null;
    };

/** Rows a page asks for: a few screens of the grid (12 rows each), so scrolling rarely waits. */
export const RECORDS_PAGE_ROWS = 100;
const RETRY_MS = 5000;

export function useRecordsPage(url: string, sort: string | null) {
  const [state, setState] = useState<RecordsState>({ phase: "loading" });
  const [loadingMore, setLoadingMore] = useState(false);
  // The answers of an earlier list (another sort, a reload) are dropped when they come late.
  const generation = useRef(0);
  const busy = useRef(false);
  // A page that failed is asked again at most every few seconds, however often the grid asks.
  const failed = useRef<{ cursor: string; at: number } | null>(null);
  const query = useCallback(
    (cursor: string | null) => {
      const q = new URLSearchParams({ limit: String(RECORDS_PAGE_ROWS) });
      if (sort) q.set("sort", sort);
      if (cursor) q.set("cursor", cursor);
      return `${url}?${q}`;
    },
    [url, sort],
  );

  const load = useCallback(
    async (keepRows = false) => {
      const mine = ++generation.current;
      busy.current = false;
      setLoadingMore(false);
      if (!keepRows) setState({ phase: "loading" });
      try {
        const page = await apiFetch<EntityRecordPage>(query(null));
        if (mine === generation.current) setState({ phase: "ready", ...page, total: page.total ?? 0, sort });
      } catch {
        if (mine === generation.current) setState({ phase: "error" });
      }
    },
    [query, sort],
  );

  // The first load shows the loading line; a new sort keeps the rows until its first page.
  const loaded = useRef(false);
  useEffect(() => {
    void load(loaded.current);
    loaded.current = true;
  }, [load]);

  /** The next page, unless one is loading or there is none; called as often as the grid likes. */
  const loadMore = useCallback(async () => {
    // A cursor is of its sort: none is asked for while a new sort's first page is on its way.
    if (state.phase !== "ready" || !state.nextCursor || state.sort !== sort || busy.current) return;
    const cursor = state.nextCursor;
    if (failed.current?.cursor === cursor && Date.now() - failed.current.at < RETRY_MS) return;
    busy.current = true;
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const page = await apiFetch<EntityRecordPage>(query(cursor));
      if (mine !== generation.current) return;
      setState((s) => {
        if (s.phase !== "ready") return s;
        // A row added here meanwhile may come again in a later page: shown once.
        const have = new Set(s.records.map((r) => r.id));
        // A later page has no count: the first page's stands, kept by the panel's adds and deletes.
        return {
          ...s,
          nextCursor: page.nextCursor,
          records: [...s.records, ...page.records.filter((r) => !have.has(r.id))],
        };
      });
    } catch {
      if (mine !== generation.current) return;
      failed.current = { cursor, at: Date.now() };
      toast.error(messages.databaseRecordsLoadFailed);
    } finally {
      if (mine === generation.current) {
        busy.current = false;
        setLoadingMore(false);
      }
    }
  }, [state, query, sort]);

  const update = useCallback(
    (change: (s: Extract<RecordsState, { phase: "ready" }>) => Extract<RecordsState, { phase: "ready" }>) =>
      setState((s) => (s.phase === "ready" ? change(s) : s)),
    [],
  );

  return { state, loadingMore, load: () => load(false), loadMore, update };
}
