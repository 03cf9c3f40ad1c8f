import { LinkIcon } from "lucide-react";
import { NoticeCard } from "@/components/shell/notice-card";
import { messages } from "@/lib/messages";

// Shown, with status 400, for an address whose percent escapes do not decode (scripts/server.ts,
// lib/security/malformed-path.ts): the styled counterpart of the API's JSON error.
export const metadata = { title: messages.badAddressTitle, robots: { index: false } };

export default function BadAddress() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <NoticeCard
        icon={LinkIcon}
        title={messages.badAddressTitle}
        text={messages.badAddressText}
        href="/"
        action={messages.notFoundHome}
      />
    </main>
  );
}
