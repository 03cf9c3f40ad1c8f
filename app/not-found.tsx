import { CompassIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { messages } from "@/lib/messages";

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <Card className="grid w-full max-w-sm gap-4 text-center">
        <CompassIcon className="mx-auto size-8 text-muted-foreground" aria-hidden />
        <div className="grid gap-1">
          <CardTitle>{messages.notFoundTitle}</CardTitle>
          <CardDescription>{messages.notFoundText}</CardDescription>
        </div>
        <Link href="/" className={buttonVariants({ className: "justify-self-center" })}>
          {messages.notFoundHome}
        </Link>
      </Card>
    </main>
  );
}
