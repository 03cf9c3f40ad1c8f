import { cn } from "@/lib/utils";

/**
 * A determinate progress bar: the track and its fill, with the percentage and its words as a screen
 * reader hears them. The words shown beside it are the caller's (they differ in size and place).
 */
export function ProgressBar({
  label,
  percent,
  text,
  className,
}: {
  label: string;
  percent: number;
  /** What the screen reader says for the value ("40% uploaded"). */
  text: string;
  className?: string;
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={text}
      className={cn("h-2 w-full overflow-hidden rounded-full bg-muted", className)}
    >
      <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}
