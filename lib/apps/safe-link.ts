// Builder-entered links and image addresses end up in href, src and CSS url(): only web
// addresses and same-site paths get through, never javascript:, data: or protocol-relative ones.
// The schemas refuse other links on save, and the public page checks again on the way out.

/** The address when it is http(s), mailto or a same-site path; otherwise null. */
export function safeHref(value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (v.startsWith("/") && !v.startsWith("//") && !v.startsWith("/\\")) return v;
  try {
    const url = new URL(v);
    return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:"
      ? url.href
      : null;
  } catch {
    return null;
  }
}

/** An image address: http(s) or a same-site path. */
export function safeImageSrc(value: string | null | undefined): string | null {
  const href = safeHref(value);
  return href && !href.startsWith("mailto:") ? href : null;
}
