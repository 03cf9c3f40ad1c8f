// Builder-entered links and image addresses end up in href, src and CSS url(): only web
// addresses and same-site paths get through, never javascript:, data: or protocol-relative ones.

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

/** A CSS url() of a safe image address, quoted and escaped. */
export function cssUrl(src: string): string {
  return `url("${src.replace(/["\\\n\r]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;
}
