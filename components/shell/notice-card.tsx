import type { LucideIcon } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

/** A card that says why a page shows nothing (not found, bad address, admins only) and where to go. */
export function NoticeCard({
  icon: Icon,
  title,
  text,
  href,
  action,
  titleClassName,
}: {
  icon: LucideIcon;
  title: string;
  text: string;
  href: string;
  action: string;
  titleClassName?: string;
}) {
  return (
    <Card className="grid w-full max-w-sm gap-4 text-center">
      <Icon className="mx-auto size-8 text-muted-foreground" aria-hidden />
      <div className="grid gap-1">
        <CardTitle className={cn(titleClassName)}>{title}</CardTitle>
        <CardDescription>{text}</CardDescription>
      </div>
      <Link href={href} className={buttonVariants({ className: "justify-self-center" })}>
        {action}
      </Link>
    </Card>
  );
}
