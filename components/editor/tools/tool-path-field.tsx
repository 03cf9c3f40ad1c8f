"use client";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { checkToolPath } from "@/lib/apps/field-rules";
import { TOOL_PATH_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

/** The rule's message for a path, or null: letters, numbers and dashes, not empty, unique among the app's tools. */
export function toolPathError(path: string, otherPaths: readonly string[]): string | null {
  const broken = checkToolPath(path, otherPaths);
  return broken ? fillTemplate(messages[broken.key], broken.vars ?? {}) : null;
}

/** A path not used by another tool: the title's path, then -2, -3... */
export function freePath(wanted: string, otherPaths: readonly string[]): string {
  const taken = new Set(otherPaths.map((p) => p.toLowerCase()));
  if (!taken.has(wanted.toLowerCase())) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`.toLowerCase())) return `${wanted}-${n}`;
}

/**
 * A tool's path with its rule checked as it is typed, and the address it gives the tool's page.
 * `error` is shown when given (the caller decides when: after a first edit, or the server's).
 */
export function ToolPathField({
  id,
  appId,
  value,
  onChange,
  error,
  onBlur,
}: {
  id: string;
  appId: string;
  value: string;
  onChange: (path: string) => void;
  error: string | null;
  onBlur?: () => void;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{messages.toolPath}</Label>
      <Input
        id={id}
        value={value}
        maxLength={TOOL_PATH_MAX}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
        className="font-mono"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
      <p id={hintId} className="break-all text-xs text-muted-foreground">
        {fillTemplate(messages.toolPathPreview, { url: `/app/${appId}/tool/${value}` })}
      </p>
    </div>
  );
}
