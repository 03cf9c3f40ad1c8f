import { ShieldAlertIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { messages } from "@/lib/messages";

/** What a signed-in builder who is not an administrator sees on an admin page. */
export function AdminOnly() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-12">
      <Card className="grid w-full max-w-sm gap-4 text-center">
        <ShieldAlertIcon className="mx-auto size-8 text-muted-foreground" aria-hidden />
        <div className="grid gap-1">
          <CardTitle>{messages.adminOnlyTitle}</CardTitle>
          <CardDescription>{messages.adminOnlyText}</CardDescription>
        </div>
        <Link href="/home" className={buttonVariants({ className: "justify-self-center" })}>
          {messages.notFoundHome}
        </Link>
      </Card>
    </div>
  );
}
