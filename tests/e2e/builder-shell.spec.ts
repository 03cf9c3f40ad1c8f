import { expect, test } from "@playwright/test";
import {
  MODAL_WIDTH,
  SIDEBAR_COOKIE,
  SIDEBAR_COOKIE_MAX_AGE_S,
  UPGRADE_GOTO_PARAM,
  UPGRADE_GOTO_VALUE,
} from "../../lib/constants";
import { messages } from "../../lib/messages";
import { BuilderShell } from "./pages/builder-shell";
import { BuilderSidebar } from "./pages/builder-sidebar";
import { HomePage } from "./pages/home-page";
import { createBuilder } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// The frame of builder pages: a sidebar that Ctrl/Cmd+B toggles and a cookie remembers (the
// server renders the remembered state, so it never flashes open), a keyboard-driven account
// menu, and the upgrade dialog at the xl modal width.

test.use({ viewport: { width: 1280, height: 800 } });

/** Every data-state the sidebar has had in this document, from the first parsed byte on. */
declare global {
  interface Window {
    __sidebarStates?: string[];
  }
}

test("Ctrl+B collapses the sidebar, the cookie remembers it for a week, the server renders it", async ({
  page,
  context,
}) => {
  const builder = await createBuilder();
  await logInAsBuilder(page, builder);
  const sidebar = new BuilderSidebar(page);
  await expect(sidebar.root).toHaveAttribute("data-state", "expanded");
  await expect(sidebar.toggle).toHaveAttribute("aria-expanded", "true");

  await sidebar.pressShortcut("Control");
  await expect(sidebar.root).toHaveAttribute("data-state", "collapsed");
  await expect(sidebar.toggle).toHaveAttribute("aria-expanded", "false");

  const cookie = (await context.cookies()).find((c) => c.name === SIDEBAR_COOKIE);
  expect(cookie?.value).toBe("false");
  expect(cookie?.path).toBe("/");
  // max-age: a week from now (a minute of slack for the test's own pace).
  expect(Math.abs((cookie?.expires ?? 0) - (Date.now() / 1000 + SIDEBAR_COOKIE_MAX_AGE_S))).toBeLessThan(60);

  // From here on, record every state the sidebar shows while the page is parsed and hydrated.
  await page.addInitScript(() => {
    const states: string[] = [];
    window.__sidebarStates = states;
    const note = (el: Element) => {
      const state = el.getAttribute("data-state");
      if (el.getAttribute("data-slot") === "sidebar" && state && states.at(-1) !== state) states.push(state);
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "attributes") note(r.target as Element);
        for (const n of Array.from(r.addedNodes)) {
          if (!(n instanceof Element)) continue;
          note(n);
          for (const el of Array.from(n.querySelectorAll('[data-slot="sidebar"]'))) note(el);
        }
      }
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-state"],
    });
  });

  // The builder layout asks for a bearer token from an effect: once it has, the page is hydrated.
  const hydrated = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/identity/token");
  const response = await page.reload();
  // The HTML itself already says collapsed: the server read the cookie.
  const html = (await response?.text()) ?? "";
  const sidebarTag = html.match(/<aside[^>]*data-slot="sidebar"[^>]*>/)?.[0] ?? "";
  expect(sidebarTag).toContain('data-state="collapsed"');
  await expect(sidebar.root).toHaveAttribute("data-state", "collapsed");
  await expect(new HomePage(page).heading).toBeVisible();
  await hydrated;
  await expect(sidebar.toggle).toHaveAttribute("aria-expanded", "false");
  // Never expanded on the way, from the first parsed byte through hydration: no flash.
  expect(await page.evaluate(() => window.__sidebarStates)).toEqual(["collapsed"]);

  await sidebar.pressShortcut("Control");
  await expect(sidebar.root).toHaveAttribute("data-state", "expanded");
  await expect(sidebar.nav.getByRole("link", { name: "Home" })).toBeVisible();
  await expect
    .poll(async () => (await context.cookies()).find((c) => c.name === SIDEBAR_COOKIE)?.value)
    .toBe("true");

  // Cmd+B does the same.
  await sidebar.pressShortcut("Meta");
  await expect(sidebar.root).toHaveAttribute("data-state", "collapsed");
  await sidebar.pressShortcut("Meta");
  await expect(sidebar.root).toHaveAttribute("data-state", "expanded");
});

test("the account menu opens from the keyboard and Escape closes it", async ({ page }) => {
  const builder = await createBuilder();
  await logInAsBuilder(page, builder);
  const trigger = new BuilderShell(page).accountMenu(builder.email);
  // While the menu is open Radix hides the rest of the page from assistive technology.
  const triggerWhileOpen = new BuilderShell(page).accountMenu(builder.email, { includeHidden: true });
  const menu = page.getByRole("menu");

  for (const key of ["Enter", "ArrowDown", "Space"]) {
    await trigger.focus();
    await expect(trigger).toBeFocused();
    await page.keyboard.press(key);
    await expect(menu).toBeVisible();
    await expect(triggerWhileOpen).toHaveAttribute("aria-expanded", "true");
    await expect(menu.getByRole("menuitem", { name: "Settings" })).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: "Log out" })).toBeVisible();
    // Keyboard opening puts focus inside the menu; arrows walk the items.
    await expect(menu.getByRole("menuitem", { name: "Settings" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Log out" })).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    // Focus goes back to the trigger.
    await expect(trigger).toBeFocused();
  }
  // Still on /home: nothing was chosen.
  await expect(page).toHaveURL(/\/home$/);
});

test("the upgrade dialog from goto=upgrade_app_plan is the xl size and Escape closes it, dropping goto", async ({
  page,
  baseURL,
}) => {
  const builder = await createBuilder();
  await logInAsBuilder(page, builder);
  await page.goto(`/home?${UPGRADE_GOTO_PARAM}=${UPGRADE_GOTO_VALUE}`);

  const dialog = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("data-size", "xl");
  const box = await dialog.boundingBox();
  expect(box?.width).toBe(MODAL_WIDTH.xl);
  // Centred in the 1280 px window.
  expect(Math.round((box?.x ?? 0) + (box?.width ?? 0) / 2)).toBe(640);

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`${baseURL}/home`);
  await expect(new HomePage(page).heading).toBeVisible();
});
