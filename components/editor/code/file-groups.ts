import { FILE_LINE_BADGE_ABOVE } from "@/lib/constants";
import type { MessageKey } from "@/lib/messages";
import type { CodeFile } from "@/lib/space/code-schemas";
import type { FileType } from "@/lib/space/files";

// The Code panel's tree, free of React so the rules can be tested: the files grouped by kind in
// the order of the app file item's types, each group's files by path, a search that keeps the
// files whose path holds the text, and the line count past which a file shows a badge.

const GROUPS: { type: FileType; label: MessageKey }[] = [
  { type: "pages", label: "codeTypePages" },
  { type: "components", label: "codeTypeComponents" },
  { type: "services", label: "codeTypeServices" },
  { type: "functions", label: "codeTypeFunctions" },
  { type: "entities", label: "codeTypeEntities" },
  { type: "layout", label: "codeTypeLayout" },
  { type: "globals css", label: "codeTypeGlobalsCss" },
  { type: "other", label: "codeTypeOther" },
];

export type FileGroup = { type: FileType; label: MessageKey; files: CodeFile[] };

/** The groups that hold a file matching `search` (case-insensitive, in the path); empty ones left out. */
export function groupFiles(files: readonly CodeFile[], search: string): FileGroup[] {
  const q = search.trim().toLowerCase();
  const matching = q ? files.filter((f) => f.path.toLowerCase().includes(q)) : files;
  return GROUPS.map((g) => ({
    ...g,
    files: matching.filter((f) => f.type === g.type).sort((a, b) => (a.path < b.path ? -1 : 1)),
  })).filter((g) => g.files.length > 0);
}

/** A file's name within its group: the path under the group's folder (`ui/Button.jsx`). */
export function nameInGroup(file: Pick<CodeFile, "path" | "type">): string {
  const folder = `${file.type}/`;
  return file.path.startsWith(folder) ? file.path.slice(folder.length) : file.path;
}

export function lineCount(content: string): number {
  if (content === "") return 0;
  let n = 1;
  for (let i = content.indexOf("\n"); i >= 0; i = content.indexOf("\n", i + 1)) n++;
  return content.endsWith("\n") ? n - 1 : n;
}

/** "File line badge above 500 lines": the count to show, or null. */
export function lineBadge(content: string): number | null {
  const n = lineCount(content);
  return n > FILE_LINE_BADGE_ABOVE ? n : null;
}
