"use client";

import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

/** The next page of a Database panel list (records, users), under it; disabled while one loads. */
export function LoadMoreButton({ busy, onClick }: { busy: boolean; onClick: () => void }) {
  return (
    <Button variant="outline" size="sm" className="justify-self-start" disabled={busy} onClick={onClick}>
      {messages.databaseLoadMore}
    </Button>
  );
}
