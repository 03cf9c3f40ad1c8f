import { APP_NAME_MAX } from "@/lib/constants";
import { appOrigin } from "@/lib/env";
import { messages } from "@/lib/messages";
import type { Mail } from "./send";

// Every emailed link is built from APP_URL, never from the request's Host header.
export function actionLink(params: Record<string, string | undefined>): string {
  const url = new URL("/auth/handler", appOrigin());
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  return url.toString();
}

// A stored name goes into a subject line: no line breaks (header injection), bounded length.
const oneLine = (s: string) =>
  s
    .replace(/[\r\n\t]+/g, " ")
    .trim()
    .slice(0, APP_NAME_MAX);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function layout(to: string, subject: string, lines: string[], link: { href: string; label: string }): Mail {
  const text = `${lines.join("\n\n")}\n\n${link.label}: ${link.href}\n`;
  const html = `<div style="font-family:system-ui,sans-serif;max-width:520px">${lines
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join("")}<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p></div>`;
  return { to, subject, text, html };
}

export function verifyEmailMail(to: string, link: string, appName?: string): Mail {
  const name = oneLine(appName || messages.productName);
  return layout(
    to,
    `Verify your email for ${name}`,
    ["Follow this link to verify your email address.", "If you didn't sign up, ignore this email."],
    { href: link, label: "Verify email" },
  );
}

export function resetPasswordMail(to: string, link: string): Mail {
  return layout(
    to,
    "Reset your password",
    [
      "Follow this link to choose a new password. It works once and expires in 1 hour.",
      "If you didn't ask for it, ignore this email.",
    ],
    { href: link, label: "Reset password" },
  );
}

export function changeEmailMail(to: string, link: string): Mail {
  return layout(to, "Confirm your new email", ["Follow this link to make this your sign-in email."], {
    href: link,
    label: "Confirm email change",
  });
}

export function magicCodeMail(to: string, code: string, link: string, storedAppName: string): Mail {
  const appName = oneLine(storedAppName);
  return layout(
    to,
    `Your ${appName} sign-in code: ${code}`,
    [`Your sign-in code is ${code}.`, "It expires in 10 minutes and works once."],
    { href: link, label: `Sign in to ${appName}` },
  );
}

export function emailChangedNoticeMail(oldEmail: string, newEmail: string): Mail {
  return layout(
    oldEmail,
    "Your sign-in email was changed",
    [
      `Your account now signs in with ${newEmail}.`,
      "If you didn't do this, reset your password and contact us.",
    ],
    { href: new URL("/login", appOrigin()).toString(), label: "Log in" },
  );
}

export function passwordRemovedMail(to: string, loginUrl: string): Mail {
  return layout(
    to,
    "Your email is confirmed: we removed an earlier password",
    [messages.passwordRemovedAfterProof],
    {
      href: loginUrl,
      label: "Log in",
    },
  );
}
