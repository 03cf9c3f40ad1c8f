"use client";

import { LayoutGridIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { cn } from "@/lib/utils";

export const toolsCollectionHref = (appId: string) => `/build/app/${appId}/tools`;

/**
 * 'Explore tools collection': a link to /build/app/{appId}/tools, hidden when the
 * builder is already there. Place it anywhere in a generated app's editor.
 */
export function ExploreToolsButton({
  appId,
  className,
  variant = "outline",
  size = "sm",
}: {
  appId: string;
  className?: string;
  variant?: "outline" | "ghost" | "secondary" | "default";
  size?: "sm" | "default";
}) {
  const pathname = usePathname();
  const href = toolsCollectionHref(appId);
  if (pathname === href) return null;
  return (
    <Button asChild variant={variant} size={size} className={cn(className)}>
      <Link href={href}>
        <LayoutGridIcon aria-hidden="true" />
        {messages.exploreTools}
      </Link>
    </Button>
  );
}
