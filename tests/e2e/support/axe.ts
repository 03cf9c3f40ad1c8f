import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** A space app's preview frame: it shows the builder's own app (its own landmarks), not our page. */
export const SPACE_PREVIEW_FRAME = '[data-testid="version-preview-frame"]';

/**
 * Runs axe (WCAG 2.0/2.1/2.2 A and AA, and best practices) on the page as it is now; 0 violations.
 * `within`: only that part (an open menu, while Radix hides the rest of the page from assistive tech).
 * `exclude`: a part left out (SPACE_PREVIEW_FRAME).
 */
export async function expectNoA11yViolations(
  page: Page,
  where: string,
  within?: string,
  exclude?: string,
): Promise<void> {
  await settleAnimations(page);
  let builder = new AxeBuilder({ page }).withTags([
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "wcag22aa",
    "best-practice",
  ]);
  if (within)
    builder = builder.include(within).disableRules(["region", "landmark-one-main", "page-has-heading-one"]);
  if (exclude) builder = builder.exclude(exclude);
  const results = await builder.analyze();
  const report = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ")}`)
        .join("\n")}`,
  );
  expect(report, `axe on ${where}`).toEqual([]);
}

/**
 * The same check in the light theme, then the dark one, on the page as it is (the page follows the
 * system's scheme, switched here without a reload), leaving the page light.
 */
export async function expectNoA11yViolationsInBothThemes(
  page: Page,
  where: string,
  within?: string,
  exclude?: string,
): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect
      .poll(() => page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches))
      .toBe(colorScheme === "dark");
    await expectNoA11yViolations(page, `${where} (${colorScheme})`, within, exclude);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/**
 * Waits until no finite transition or animation runs (a spinner's never ends, and is not waited
 * for). With motion on, colours fade (a theme switched by emulateMedia, a row fading in), and axe
 * would read a colour halfway. A transition only exists once the page has restyled, so two frames
 * pass first; a transition that starts another is waited for too (three rounds at most).
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    for (let round = 0; round < 3; round++) {
      await frame();
      await frame();
      const running = document
        .getAnimations()
        .filter(
          (a) => a.playState === "running" && a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
        );
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}
