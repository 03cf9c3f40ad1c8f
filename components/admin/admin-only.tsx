import { ShieldAlertIcon } from "lucide-react";
import { NoticeCard } from "@/components/shell/notice-card";
import { messages } from "@/lib/messages";

/** What a signed-in builder who is not an administrator sees on an admin page. */
export function AdminOnly() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-12">
      <NoticeCard
        icon={ShieldAlertIcon}
        title={messages.adminOnlyTitle}
        text={messages.adminOnlyText}
        href="/home"
        action={messages.notFoundHome}
      />
    </div>
  );
}
