"use client";

import { useId, useMemo, useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { messages } from "@/lib/messages";
import type { CodeFile } from "@/lib/space/code-schemas";
import { type ReferenceUpdate, referencesTo } from "@/lib/space/import-references";
import { fillTemplate } from "@/lib/text";

/**
 * Confirms a delete, offering the files that import the deleted one updated with it (their import
 * statements of it removed), each checked by default; the builder unchecks those to leave alone.
 */
export function DeleteFileDialog({
  file,
  files,
  onCancel,
  onConfirm,
}: {
  file: CodeFile;
  files: readonly CodeFile[];
  onCancel: () => void;
  onConfirm: (references: ReferenceUpdate[]) => void;
}) {
  const references = useMemo(() => referencesTo(files, file.path), [files, file.path]);
  const [unchecked, setUnchecked] = useState<Set<string>>(() => new Set());
  const baseId = useId();
  return (
    <AlertDialog open onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{fillTemplate(messages.codeDeleteTitle, { name: file.name })}</AlertDialogTitle>
          <AlertDialogDescription>{messages.codeDeleteText}</AlertDialogDescription>
        </AlertDialogHeader>
        {references.length === 0 ? (
          <p className="text-sm text-muted-foreground">{messages.codeDeleteNoReferences}</p>
        ) : (
          <fieldset className="grid gap-2 text-sm" data-testid="delete-references">
            <legend className="mb-2">{messages.codeDeleteReferences}</legend>
            {references.map((r, i) => (
              <div key={r.path} className="flex items-center gap-2">
                <Checkbox
                  id={`${baseId}-${i}`}
                  checked={!unchecked.has(r.path)}
                  onCheckedChange={(v) =>
                    setUnchecked((s) => {
                      const next = new Set(s);
                      if (v === true) next.delete(r.path);
                      else next.add(r.path);
                      return next;
                    })
                  }
                />
                <Label htmlFor={`${baseId}-${i}`} className="font-mono text-xs font-normal">
                  {r.path}
                </Label>
              </div>
            ))}
          </fieldset>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>{messages.codeCancel}</AlertDialogCancel>
          <AlertDialogAction
            destructive
            onClick={() => onConfirm(references.filter((r) => !unchecked.has(r.path)))}
          >
            {messages.codeDeleteConfirm}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
