import { CompassIcon } from "lucide-react";
import { NoticeCard } from "@/components/shell/notice-card";
import { messages } from "@/lib/messages";

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <NoticeCard
        icon={CompassIcon}
        title={messages.notFoundTitle}
        text={messages.notFoundText}
        href="/"
        action={messages.notFoundHome}
      />
    </main>
  );
}
