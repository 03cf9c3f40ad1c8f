"use client";

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { ImageUploadField } from "@/components/uploads/image-upload-field";
import { messages } from "@/lib/messages";
import type { ToolView } from "./tool-api";

/** The thumbnail of one tool, uploaded at accounts/{account}/apps/{app}/tools/{toolId}/thumb. */
export function ToolThumbnailDialog({
  appId,
  tool,
  name,
  onOpenChange,
  onChange,
}: {
  appId: string;
  tool: ToolView | null;
  name: string;
  onOpenChange: (open: boolean) => void;
  onChange: (tool: ToolView, imageUrl: string | null) => void;
}) {
  return (
    <Dialog open={tool !== null} onOpenChange={onOpenChange}>
      <DialogContent size="sm">
        <DialogHeader>
          <DialogTitle className="break-words">{name}</DialogTitle>
          <DialogDescription>{messages.toolThumbnailHint}</DialogDescription>
        </DialogHeader>
        {tool && (
          <ImageUploadField
            label={messages.toolThumbnail}
            value={tool.imageUrl}
            appId={appId}
            kind="thumb"
            toolId={tool.toolId}
            onChange={(url) => onChange(tool, url)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
