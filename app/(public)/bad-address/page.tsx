import { LinkIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { messages } from "@/lib/messages";

// Shown, with status 400, for an address whose percent escapes do not decode (scripts/server.ts,
// lib/security/malformed-path.ts): the styled counterpart of the API's JSON error.
export const metadata = { title: messages.badAddressTitle, robots: { index: false } };

export default function BadAddress() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <Card className="grid w-full max-w-sm gap-4 text-center">
        <LinkIcon className="mx-auto size-8 text-muted-foreground" aria-hidden />
        <div className="grid gap-1">
          <CardTitle>{messages.badAddressTitle}</CardTitle>
          <CardDescription>{messages.badAddressText}</CardDescription>
        </div>
        <Link href="/" className={buttonVariants({ className: "justify-self-center" })}>
          {messages.notFoundHome}
        </Link>
      </Card>
    </main>
  );
}
