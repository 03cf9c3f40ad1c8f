import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { listOutbox } from "@/lib/email/outbox";
import { isProduction } from "@/lib/env";

export const metadata: Metadata = { title: "Outbox" };
export const dynamic = "force-dynamic";

// Development only: the mails that went to the outbox because SMTP_URL is not set.
export default async function OutboxPage() {
  if (isProduction()) notFound();
  const { mails } = await listOutbox(undefined, 50);
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-10">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Outbox</h1>
        <p className="text-sm text-muted-foreground">
          Mails written here because SMTP_URL is not set. Newest first; links open in this browser.
        </p>
      </div>
      {mails.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted-foreground">
          No mail yet
        </p>
      ) : (
        <ul className="grid gap-4">
          {mails.map((m) => (
            <li key={m.id} className="rounded-lg border border-border">
              <div className="border-b border-border px-4 py-2 text-sm">
                <p className="font-medium">{m.subject}</p>
                <p className="text-muted-foreground">
                  To {m.to} · {m.createdAt.toLocaleString("en-GB", { timeZone: "UTC" })} UTC
                </p>
              </div>
              <MailText text={m.text} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

// Plain-text body with its links clickable (no HTML injection into this page).
function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <p className="whitespace-pre-wrap break-all px-4 py-3 text-sm">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable string
          <a key={i} className="underline" href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  );
}
