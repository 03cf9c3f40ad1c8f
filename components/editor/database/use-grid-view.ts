"use client";

import { useEffect, useState } from "react";
import type { TableColumn } from "@/lib/space/table-columns";

// How the builder last viewed an entity's records: the column they sorted by and the columns they
// hid, kept in this browser (localStorage) per app and entity. A field the entity no longer has is
// dropped on reading (the server refuses a sort by it).

export type GridSort = { field: string; direction: "asc" | "desc" };
export type GridView = { sort: GridSort | null; hidden: string[] };

const keyOf = (appId: string, entity: string) => `database-grid:${appId}:${entity}`;

function read(key: string, columns: TableColumn[]): GridView {
  const fields = new Set(columns.map((c) => c.field));
  try {
    const raw = JSON.parse(window.localStorage.getItem(key) ?? "null") as Partial<GridView> | null;
    const sort = raw?.sort;
    return {
      sort:
        sort &&
        typeof sort.field === "string" &&
        fields.has(sort.field) &&
        ["asc", "desc"].includes(sort.direction)
          ? { field: sort.field, direction: sort.direction }
          : null,
      hidden: Array.isArray(raw?.hidden)
        ? raw.hidden.filter((f) => typeof f === "string" && fields.has(f))
        : [],
    };
  } catch {
    // No storage (private mode, blocked) or not ours: the default view.
    return { sort: null, hidden: [] };
  }
}

/** The sort as the records list takes it (?sort=), null for its default (newest first). */
export const sortParam = (sort: GridSort | null) =>
  sort ? `${sort.direction === "desc" ? "-" : ""}${sort.field}` : null;

export function useGridView(appId: string, entity: string, columns: TableColumn[]) {
  const key = keyOf(appId, entity);
  const [view, setView] = useState<GridView>(() => read(key, columns));
  useEffect(() => {
    try {
      window.localStorage.setItem(key, JSON.stringify(view));
    } catch {
      // Not kept: the view lasts as long as the panel.
    }
  }, [key, view]);
  return {
    view,
    setSort: (sort: GridSort | null) => setView((v) => ({ ...v, sort })),
    setHidden: (field: string, hidden: boolean) =>
      setView((v) => ({
        ...v,
        hidden: hidden ? [...new Set([...v.hidden, field])] : v.hidden.filter((f) => f !== field),
      })),
  };
}
