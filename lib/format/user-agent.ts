/** A short, human name for a browser's User-Agent ("Firefox on Linux"); null when unknown. */
export function deviceName(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const browser =
    [
      [/Edg\//, "Edge"],
      [/OPR\//, "Opera"],
      [/Firefox\//, "Firefox"],
      [/Chrom(e|ium)\//, "Chrome"],
      [/Safari\//, "Safari"],
    ].find(([re]) => (re as RegExp).test(userAgent))?.[1] ?? null;
  const os =
    [
      [/Android/, "Android"],
      [/iPhone|iPad|iPod/, "iOS"],
      [/Windows/, "Windows"],
      [/Mac OS X|Macintosh/, "macOS"],
      [/CrOS/, "ChromeOS"],
      [/Linux/, "Linux"],
    ].find(([re]) => (re as RegExp).test(userAgent))?.[1] ?? null;
  if (browser && os) return `${browser} on ${os}`;
  return (browser as string | null) ?? (os as string | null) ?? userAgent.slice(0, 60);
}
