"use client";

import { ApiError } from "@/components/auth/api-client";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { fileType, pendingItem, textName } from "./add-data-dialog";
import {
  type ContextItemView,
  deleteContextItem,
  ingestText,
  replaceDataItem,
  uploadContextFile,
} from "./data-sources-api";
import { FileSourceForm, type SubmitFile } from "./file-source-form";
import { replaceKind } from "./item-format";
import { TextSourceForm } from "./text-source-form";

/**
 * Replaces a text or file item with a new text or file of the same kind: the new one is added
 * with `replacing=<old id>` (so a plan's last free item is not counted twice), then
 * replaceDataItem swaps them; if the swap fails, the new item is removed again and the old one
 * stays ('Failed to replace item, try again later').
 */
export function ReplaceItemDialog({
  item,
  appId,
  maxBytes,
  onClose,
  onReplaced,
}: {
  item: ContextItemView | null;
  appId: string;
  maxBytes: number;
  onClose: () => void;
  onReplaced: (oldId: string, added: ContextItemView) => void;
}) {
  const kind = item ? replaceKind(item) : null;

  const swap = async (old: ContextItemView, added: ContextItemView): Promise<string | null> => {
    try {
      await replaceDataItem(appId, old.id, added.id);
    } catch {
      await deleteContextItem(added.id).catch(() => {});
      return messages.contextReplaceFailed;
    }
    onReplaced(old.id, added);
    onClose();
    return null;
  };

  // What the new content's upload answered: its own refusals (empty text, CSV without headers,
  // size) in the server's words; anything else is the replace failure.
  const uploadFailure = (err: unknown) =>
    err instanceof ApiError && (err.status === 400 || err.status === 413) && err.code !== "INTERNAL"
      ? err.message
      : messages.contextReplaceFailed;

  const replaceWithText = async (text: string) => {
    if (!item) return null;
    try {
      const id = await ingestText(appId, text, item.id);
      return swap(
        item,
        pendingItem({
          id,
          name: textName(text),
          type: "txt",
          source: "local files",
          size: Array.from(text).length,
        }),
      );
    } catch (err) {
      return uploadFailure(err);
    }
  };

  const replaceWithFile: SubmitFile = async (file, onProgress, signal) => {
    if (!item) return null;
    try {
      const id = await uploadContextFile(appId, file, { replacing: item.id, onProgress, signal });
      return swap(
        item,
        pendingItem({
          id,
          name: file.name,
          type: fileType(file.name),
          source: "local files",
          size: file.size,
        }),
      );
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") throw err;
      return uploadFailure(err);
    }
  };

  return (
    <Dialog open={item !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent size="md">
        <DialogHeader>
          <DialogTitle>
            {fillTemplate(messages.dataSourceReplaceTitle, { name: item?.name ?? "" })}
          </DialogTitle>
          <DialogDescription>{messages.dataSourceReplaceText}</DialogDescription>
        </DialogHeader>
        {kind === "text" ? (
          <TextSourceForm submitLabel={messages.dataSourceReplaceSubmit} submit={replaceWithText} />
        ) : kind ? (
          <FileSourceForm
            kind={kind}
            maxBytes={maxBytes}
            submitLabel={messages.dataSourceReplaceSubmit}
            submit={replaceWithFile}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
