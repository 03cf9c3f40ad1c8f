import { NextRequest } from "next/server";
import * as nextAuthRoute from "../../app/api/auth/[...nextauth]/route";
import { sessionCookieName } from "../../lib/auth/session-token";

const APP_URL = process.env.APP_URL ?? "http://localhost:3000";

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");

/** A browser's round trip through Auth.js, in-process: CSRF token, then a form post. */
async function formPost(
  path: string,
  fields: Record<string, string>,
  cookie = "",
  headers: Record<string, string> = {},
) {
  const csrf = await nextAuthRoute.GET(new NextRequest(`${APP_URL}/api/auth/csrf`, { headers: { cookie } }));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = [cookie, cookiesOf(csrf)].filter(Boolean).join("; ");
  return nextAuthRoute.POST(
    new NextRequest(`${APP_URL}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar, ...headers },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${APP_URL}/home`, ...fields }).toString(),
    }),
  );
}

/** Signs in with a Credentials provider as the login form does; answers the session cookie, if any. */
export async function authJsSignIn(
  provider: "password" | "token",
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<string | undefined> {
  return (await authJsSignInAnswer(provider, fields, headers)).cookie;
}

/** The same, with why a refused sign-in was refused (the catalogue key Auth.js puts in `code`). */
export async function authJsSignInAnswer(
  provider: "password" | "token",
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await formPost(`/api/auth/callback/${provider}`, fields, "", headers);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${sessionCookieName()}=`) && !c.includes("Max-Age=0"))
    ?.split(";")[0];
  const location = res.headers.get("location");
  const refusedWith = location ? new URL(location).searchParams.get("code") : null;
  return { cookie, refusedWith };
}

/** Logs out as the logout page does (POST /api/auth/signout with the session cookie). */
export async function authJsSignOut(sessionCookie: string): Promise<Response> {
  return formPost("/api/auth/signout", {}, sessionCookie);
}
