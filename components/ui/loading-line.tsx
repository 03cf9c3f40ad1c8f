import { Loader2Icon } from "lucide-react";

/** A line saying what is loading, with a spinner; announced politely (role="status"). */
export function LoadingLine({ text }: { text: string }) {
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
      <Loader2Icon aria-hidden className="size-4 animate-spin" />
      {text}
    </p>
  );
}
