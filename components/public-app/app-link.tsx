import Link from "next/link";
import type * as React from "react";

/**
 * A link of the public page. In the editor's preview pane ("preview") nothing navigates away
 * from the editor: the link is drawn the same but is plain text.
 */
export function AppLink({
  href,
  mode,
  className,
  style,
  children,
  external = false,
}: {
  href: string;
  mode: "live" | "preview";
  className?: string;
  style?: React.CSSProperties;
  children: React.ReactNode;
  /** Off-site (the call to action, the watermark): a plain anchor, no client navigation. */
  external?: boolean;
}) {
  if (mode === "preview") {
    return (
      <span className={className} style={style} data-href={href}>
        {children}
      </span>
    );
  }
  if (external) {
    return (
      <a href={href} className={className} style={style} rel="noopener">
        {children}
      </a>
    );
  }
  return (
    <Link href={href} className={className} style={style}>
      {children}
    </Link>
  );
}
