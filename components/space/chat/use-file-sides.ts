"use client";

import { useEffect, useState } from "react";
import type { ChangedFileSides } from "@/lib/space/schemas";
import type { ChangedFile, ChangeStatus } from "./file-diff";
import { fetchFileAtVersion } from "./versions-api";

// The two sides of the file a changes dialog shows, read when it is first shown (a version of 200
// changed files is one small answer, and each file costs one read only when the builder picks it).
// The files whose sides are known already (the first one came with the changes themselves,
// sides=first; a repair's come whole) are never read.

/** A changed file as the tree shows it: its path and how it changed. */
export type ChangedPath = { path: string; status: ChangeStatus };

export type Sides = { state: "loading" } | { state: "failed" } | { state: "ready"; file: ChangedFile };

export const NONE_GIVEN: ReadonlyMap<string, ChangedFile> = new Map();

/** The answer's firstFile (sides=first) as the files known with both sides. */
export function givenSides(f: ChangedFileSides | null | undefined): ReadonlyMap<string, ChangedFile> {
  if (!f) return NONE_GIVEN;
  const file = { path: f.path, status: f.status, before: f.previousContent ?? "", after: f.content ?? "" };
  return new Map([[f.path, file]]);
}

/**
 * The selected file at the version and at its parent (or at the current files), read once per file
 * while the dialog is open; `given` are the files known with both sides already.
 */
export function useFileSides(
  appId: string,
  versionId: string,
  against: "parent" | "current",
  file: ChangedPath | undefined,
  given: ReadonlyMap<string, ChangedFile>,
) {
  const [read, setRead] = useState<ReadonlyMap<string, Sides>>(new Map());
  const [attempt, setAttempt] = useState(0);
  const path = file?.path;
  const ready = path ? given.get(path) : undefined;
  const known: Sides | undefined = ready
    ? { state: "ready", file: ready }
    : path
      ? read.get(path)
      : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reads a failed file again; `file` is read through `path`
  useEffect(() => {
    if (!file || (known && known.state !== "failed")) return;
    // Kept by path even when another file is picked meanwhile: the answer is still this file's.
    const put = (sides: Sides) => setRead((m) => new Map(m).set(file.path, sides));
    put({ state: "loading" });
    fetchFileAtVersion(appId, versionId, file.path, against).then(
      (f) =>
        put({ state: "ready", file: { ...file, before: f.previousContent ?? "", after: f.content ?? "" } }),
      () => put({ state: "failed" }),
    );
  }, [appId, versionId, against, path, attempt]);
  return { sides: known ?? ({ state: "loading" } as Sides), retry: () => setAttempt((n) => n + 1) };
}
