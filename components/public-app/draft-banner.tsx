import { TriangleAlertIcon } from "lucide-react";
import { publicAppMessages } from "@/lib/messages/public-app";

/** What the builder sees above an app (or a tool) only they can see: it is not published. */
export function DraftBanner({ draft }: { draft: "app" | "tool" }) {
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-2 bg-[#FEF3C7] px-4 py-2 text-center text-sm font-medium text-[#78350F]"
    >
      <TriangleAlertIcon className="size-4 shrink-0" aria-hidden />
      {draft === "tool" ? publicAppMessages.publicDraftToolBanner : publicAppMessages.publicDraftBanner}
    </div>
  );
}
