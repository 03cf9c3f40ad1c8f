// Who may read and write an entity's records through the app's own code: the entity's
// x-accessControl.permissions levels, decided here and nowhere else, for the preview and the
// published app alike.
//
// - anonymous: anybody, signed in or not
// - all: any signed-in user of the app (its end users, and its builder)
// - admin: the app's builder (its owner, or a platform admin) and the end users it made admins
// - creator: the record's creator (admins too: they manage every record); creating needs a sign-in
// - none: nobody through the data client (the builder still has the Database panel)
//
// The app's service role (its backend functions, lib/functions) is above every level: it reads and
// writes every record of its own app. No end user can be it: only the functions' gateway makes one
// (serviceCallerOf in ./actor.ts), and only for the app whose function calls.
//
// A caller reads a record only if the read level lets them, and changes or deletes one only if
// they may also read it: a record one cannot see is "not found", never "forbidden".

import type { ACCESS_LEVELS } from "@/lib/space/schemas";

export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Who calls the data API from the app's pages: nobody signed in, or one of its users. */
export type EndUserActor = { kind: "anonymous" } | { kind: "user"; userId: string; admin: boolean };

/** The app's own backend functions: every record of their app, whatever its entities' levels. */
export type ServiceActor = { kind: "service" };

export type Actor = EndUserActor | ServiceActor;

export type Permissions = { read: AccessLevel; write: AccessLevel };

/** Which rows a list shows this caller: every one, only their own, or none. */
export function readScope(level: AccessLevel, actor: Actor): "every" | "own" | "nothing" {
  if (actor.kind === "service") return "every";
  if (level === "none") return "nothing";
  if (level === "anonymous") return "every";
  if (actor.kind === "anonymous") return "nothing";
  if (level === "all" || actor.admin) return "every";
  return level === "creator" ? "own" : "nothing";
}

export function mayRead(level: AccessLevel, actor: Actor, record: { creatorId: string | null }): boolean {
  const scope = readScope(level, actor);
  return scope === "every" || (scope === "own" && actor.kind === "user" && record.creatorId === actor.userId);
}

export function mayCreate(level: AccessLevel, actor: Actor): boolean {
  if (actor.kind === "service") return true;
  if (level === "none") return false;
  if (level === "anonymous") return true;
  if (actor.kind === "anonymous") return false;
  return level === "admin" ? actor.admin : true;
}

/** Whether the caller may change or delete this record (reading it is checked apart). */
export function mayWrite(level: AccessLevel, actor: Actor, record: { creatorId: string | null }): boolean {
  if (actor.kind === "service") return true;
  if (level === "none") return false;
  if (level === "anonymous") return true;
  if (actor.kind === "anonymous") return false;
  if (level === "all" || actor.admin) return true;
  return level === "creator" && record.creatorId === actor.userId;
}

/** A refusal that signing in could lift: the caller is anonymous and signed-in users get further. */
export function signInWouldHelp(level: AccessLevel, actor: Actor): boolean {
  return actor.kind === "anonymous" && level !== "none" && level !== "anonymous";
}
