import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

// A real SMTP server for tests: the app's production mail path (nodemailer over SMTP) runs
// unchanged and every message is parsed with postal-mime. No TLS, no auth: it listens on
// 127.0.0.1 only. Point the app at it with the `url` it returns (SMTP_URL).

export type Mail = {
  /** Arrival order within this server, from 1. */
  seq: number;
  /** The envelope recipient, lower-cased (one Mail per recipient). */
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
};

export type SmtpCapture = {
  url: string;
  port: number;
  /** Mails received so far, oldest first; only those to `to` when given. */
  messages(to?: string): Mail[];
  /** The first mail to `to` that matches, waiting for it to arrive (rejects after timeoutMs). */
  waitForMail(to: string, predicate?: (mail: Mail) => boolean, timeoutMs?: number): Promise<Mail>;
  /**
   * While on, a new connection is accepted and then never greeted (a stuck server); the
   * connections held so far are closed when it is turned off.
   */
  setStalled(stalled: boolean): void;
  close(): Promise<void>;
};

export type SmtpCaptureOptions = {
  /** 0 = any free port. */
  port?: number;
  /**
   * Also write each mail as `<seq>.json` into this directory (written to a temporary name,
   * then renamed, so a reader never sees half a file). Lets other processes read the mails.
   */
  mailDir?: string;
  /** Each message is accepted only this long after its data has arrived (a slow mail server). */
  delayMs?: number;
};

const norm = (s: string) => s.trim().toLowerCase();

export async function startSmtpCapture(opts: SmtpCaptureOptions = {}): Promise<SmtpCapture> {
  const mails: Mail[] = [];
  const waiters = new Set<() => void>();
  if (opts.mailDir) fs.mkdirSync(opts.mailDir, { recursive: true });
  let stalled = false;
  const held = new Set<(err?: Error) => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    banner: "test capture",
    size: 10 * 1024 * 1024,
    onConnect(_session, callback) {
      // The greeting is sent once this calls back: a stalled server never does.
      if (stalled) held.add(callback);
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", callback);
      stream.on("end", async () => {
        try {
          if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
          const parsed = await PostalMime.parse(Buffer.concat(chunks));
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
          for (const rcpt of session.envelope.rcptTo) {
            const mail: Mail = {
              seq: mails.length + 1,
              to: norm(rcpt.address),
              from,
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: parsed.html ?? "",
              receivedAt: new Date().toISOString(),
            };
            mails.push(mail);
            if (opts.mailDir) writeMailFile(opts.mailDir, mail);
          }
          for (const wake of waiters) wake();
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  // A client that misbehaves must not crash the test run.
  server.on("error", () => {});
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo)
    .port;

  const messages = (to?: string) => (to ? mails.filter((m) => m.to === norm(to)) : [...mails]);

  return {
    // ignoreTLS: never try STARTTLS (the server does not offer it anyway).
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    port,
    messages,
    waitForMail(to, predicate = () => true, timeoutMs = 10_000) {
      return new Promise<Mail>((resolve, reject) => {
        const check = () => {
          const found = messages(to).find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          const seen = messages(to).map((m) => `"${m.subject}"`);
          reject(
            new Error(`No mail to ${to} within ${timeoutMs} ms (received: ${seen.join(", ") || "none"})`),
          );
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      });
    },
    setStalled(on) {
      stalled = on;
      if (on) return;
      const refused = Object.assign(new Error("Try again"), { responseCode: 421 });
      for (const refuse of held) refuse(refused);
      held.clear();
    },
    close: () => {
      for (const refuse of held) refuse(new Error("closing"));
      held.clear();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function writeMailFile(dir: string, mail: Mail): void {
  const name = `${String(mail.seq).padStart(6, "0")}.json`;
  const tmp = path.join(dir, `.${name}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(mail, null, 2));
  fs.renameSync(tmp, path.join(dir, name));
}
