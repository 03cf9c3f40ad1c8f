import { expect, test } from "@playwright/test";

// A path whose percent escapes do not decode (an overlong form, an escape cut short, an escaped
// lone surrogate) fails in Next's router before any handler or page runs, so only the production
// server shows what a client gets: 400, the API's JSON error under /api, the styled page elsewhere
// (scripts/server.ts, lib/security/malformed-path.ts).

const API_PATHS = ["/api/apps/%E0%A4%A", "/api/apps/%C0%AF", "/api/apps/%ED%A0%80/runs", "/api/files/%C0%AF"];
const PAGE_PATHS = ["/app/%C0%AF", "/app/%E0%A4%A", "/tool/%ED%A0%80", "/app/abc%2"];

test("an API path that does not decode answers 400 with the JSON error", async ({ request }) => {
  for (const path of API_PATHS) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(res.headers()["content-type"], path).toContain("application/json");
    expect(await res.json(), path).toEqual({
      error: { code: "MALFORMED_PATH", message: "This address is not valid" },
    });
  }
  const post = await request.post("/api/apps/%E0%A4%A", { data: { x: 1 } });
  expect(post.status()).toBe(400);
});

test("a page address that does not decode answers 400 with the styled page", async ({ request, page }) => {
  for (const path of PAGE_PATHS) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(res.headers()["content-type"], path).toContain("text/html");
    expect(await res.text(), path).toContain("This address is not valid");
  }
  const res = await page.goto("/app/%C0%AF");
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "This address is not valid" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the start" }).click();
  await expect(page).toHaveURL(/\/$/);
});
