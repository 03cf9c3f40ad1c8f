import { RotateCcwIcon } from "lucide-react";
import { plansMessages } from "@/lib/messages/plans";
import { Button } from "./button";

/** What could not be loaded, announced (role="alert"), with a Retry button. */
export function LoadFailed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div className="grid content-start justify-items-start gap-2 text-sm" role="alert">
      <p>{text}</p>
      <Button size="sm" variant="outline" onClick={onRetry}>
        <RotateCcwIcon aria-hidden />
        {plansMessages.retry}
      </Button>
    </div>
  );
}
