import type { Page } from "@playwright/test";

// React reports a page whose server HTML the browser's first render did not match: in a
// production build as a minified error (#418 and its kin, the text of the error names the
// hydration), in development as "Hydration failed" / "did not match". The page still works
// (React renders it again on the client), so only the console tells.
const HYDRATION = /hydrat|did(?: not|n't) match|server rendered|react\.dev\/errors\/(418|423|425)\b/i;

/** Collects, from now on, every console error and page error of `page` that is a hydration mismatch. */
export function collectHydrationErrors(page: Page): string[] {
  const found: string[] = [];
  page.on("console", (m) => {
    if ((m.type() === "error" || m.type() === "warning") && HYDRATION.test(m.text())) found.push(m.text());
  });
  page.on("pageerror", (e) => {
    if (HYDRATION.test(`${e.message}\n${e.stack ?? ""}`)) found.push(e.message);
  });
  return found;
}
