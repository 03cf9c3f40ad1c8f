import { expect, type Page, type Response, test } from "@playwright/test";
import { ACCOUNT_CREATE_RETRIES } from "../../lib/constants";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { UnauthorizedPage } from "./pages/unauthorized-page";
import { createBuilder } from "./support/db";
import { accountsOf, createPendingSale, settleSaleAsWebhook, unknownSaleId } from "./support/sales";

// Account creation after login: with a sale_id the client waits, then treats a 401
// from account/create as "not yet ready" and retries it (the payment webhook makes the account).
// When the retries run out the user is signed out and sent to /error/unauthorized?paymentId=.
//
// Without a sale_id a 401 sends the user to the same page at once, but a signed-in user whose
// account/create answers 401 cannot be produced from outside the app: not covered here.

const isAccountCreate = (r: Response) =>
  r.request().method() === "POST" && new URL(r.url()).pathname === "/api/live_api/account/create";

type CreateCall = { status: number; saleId: string | null; body: Promise<unknown> };

/** Every answer to account/create this page receives, in order (bodies read at once). */
function recordAccountCreates(page: Page): CreateCall[] {
  const seen: CreateCall[] = [];
  page.on("response", (r) => {
    if (!isAccountCreate(r)) return;
    seen.push({
      status: r.status(),
      saleId: new URL(r.url()).searchParams.get("sale_id"),
      body: r.json().catch(() => undefined),
    });
  });
  return seen;
}

async function accountCurrentStatus(page: Page): Promise<number> {
  return page.evaluate(async () => (await fetch("/api/live_api/account/current")).status);
}

test("a sale that is never paid: retries run out, the user is signed out on /error/unauthorized", async ({
  page,
  baseURL,
}) => {
  // 3 s wait + 7 retries 4 s apart: about half a minute of waiting by design.
  test.setTimeout(60_000);
  const saleId = unknownSaleId();
  const builder = await createBuilder({ withAccount: false });
  const creates = recordAccountCreates(page);

  const login = new LoginPage(page);
  await login.goto(`?sale_id=${saleId}`);
  await login.logIn(builder.email, builder.password);

  await expect(page).toHaveURL(`${baseURL}/error/unauthorized?paymentId=${saleId}`, { timeout: 50_000 });
  const unauthorized = new UnauthorizedPage(page);
  await expect(unauthorized.explanation).toBeVisible();
  await expect(unauthorized.paymentReference(saleId)).toBeVisible();

  // The first try and then ACCOUNT_CREATE_RETRIES more, every one a 401 for this sale.
  expect(creates.map((c) => c.status)).toEqual(Array(ACCOUNT_CREATE_RETRIES + 1).fill(401));
  expect(creates.map((c) => c.saleId)).toEqual(Array(ACCOUNT_CREATE_RETRIES + 1).fill(saleId));

  // Signed out: the session cookie no longer opens the API, and builder pages ask for a login.
  await expect.poll(() => accountCurrentStatus(page)).toBe(401);
  await page.goto("/home");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fhome$/);
  // No account was made for a sale nobody paid.
  expect(await accountsOf(builder.id)).toEqual([]);
});

test("a sale paid while the client retries: the account appears and the builder lands on /home", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const builder = await createBuilder({ withAccount: false });
  const saleId = await createPendingSale(builder.id);
  const creates = recordAccountCreates(page);

  const login = new LoginPage(page);
  await login.goto(`?sale_id=${saleId}`);
  const firstRefusal = page.waitForResponse((r) => isAccountCreate(r) && r.status() === 401, {
    timeout: 20_000,
  });
  await login.logIn(builder.email, builder.password);

  // The sale is still pending: account/create says "not yet ready" and the browser waits on /login.
  await firstRefusal;
  await expect(page).toHaveURL(`${baseURL}/login?sale_id=${saleId}`);
  expect(await accountsOf(builder.id)).toEqual([]);

  // Now the payment webhook arrives: the sale is paid and the account exists.
  const { accountId } = await settleSaleAsWebhook(saleId);

  await expect(page).toHaveURL(`${baseURL}/home`, { timeout: 20_000 });
  await expect(new HomePage(page).heading).toBeVisible();
  await expect(new HomePage(page).signedInAs(builder.email)).toBeVisible();

  // Refused while pending, then accepted once; never more tries than the retries allow.
  const statuses = creates.map((c) => c.status);
  expect(statuses.length).toBeLessThanOrEqual(ACCOUNT_CREATE_RETRIES + 1);
  expect(statuses.at(-1)).toBe(200);
  expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
  expect(await creates.at(-1)?.body).toEqual({ accountId });
  // The webhook's account, not a second one made by the client.
  expect(await accountsOf(builder.id)).toEqual([
    { account_id: accountId, plan: "explorer", account_type: "builder" },
  ]);
  expect(await accountCurrentStatus(page)).toBe(200);
});
