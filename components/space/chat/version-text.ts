import { messages } from "@/lib/messages";
import type { VersionSummary } from "@/lib/space/views";

// How a version reads in the version lists: the builder's request, else its description, else
// what made it (a restore, an edit outside the chat).

const KIND_TEXT: Record<VersionSummary["kind"], string> = {
  chat: messages.versionsKindChat,
  restore: messages.versionsKindRestore,
  undo_restore: messages.versionsKindUndoRestore,
  edit: messages.versionsKindEdit,
  merge: messages.versionsKindMerge,
};

export function versionText(v: Pick<VersionSummary, "userRequest" | "description" | "kind">): string {
  return v.userRequest.trim() || v.description.trim() || KIND_TEXT[v.kind];
}

export const versionDate = (iso: string) => new Date(iso).toLocaleString();
