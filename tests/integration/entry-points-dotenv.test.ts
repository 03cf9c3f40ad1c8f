import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Every command of package.json reads .env before anything reads the environment. Each entry is
// started in a directory of its own whose .env names the port of a listener of this test; the
// entry must knock on that port (not on its default, 54329 or 4010). A TCP listener stands in for
// PostgreSQL: the first connection is all the test needs, then the command is stopped.

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(() => {
  for (const child of children) stopGroup(child);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function stopGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** A listener that resolves `knocked` at its first connection (and holds it open, unanswered). */
async function listener() {
  let knocked!: () => void;
  const reached = new Promise<void>((resolve) => {
    knocked = resolve;
  });
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    knocked();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const close = () => {
    for (const s of sockets) s.destroy();
    server.close();
  };
  return { port, reached, close };
}

async function freePort(): Promise<number> {
  const l = await listener();
  l.close();
  return l.port;
}

/** Starts `scripts/<entry>` as npm does, in a fresh directory holding only this .env. */
function startEntry(
  entry: string,
  dotenv: string,
  extraEnv: Record<string, string> = {},
  args: string[] = [],
) {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "entry-env-"));
  dirs.push(cwd);
  fs.writeFileSync(path.join(cwd, ".env"), dotenv);
  const child = spawn(
    process.execPath,
    [TSX, "--conditions=react-server", path.join(ROOT, "scripts", entry), ...args],
    {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      // Nothing of the test's own environment (DATABASE_URL, AUTH_SECRET, ...): only .env speaks.
      env: {
        PATH: process.env.PATH ?? "",
        HOME: os.tmpdir(),
        TSX_TSCONFIG_PATH: path.join(ROOT, "tsconfig.json"),
        NODE_ENV: "development",
        ...extraEnv,
      },
    },
  );
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d) => {
    output += String(d);
  });
  child.stderr?.on("data", (d) => {
    output += String(d);
  });
  return { child, output: () => output };
}

async function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const SECRET = `AUTH_SECRET=${"s".repeat(40)}\n`;

describe("entry points load .env first", () => {
  it.each(["dev.ts", "start.ts", "seed.ts", "migrate.ts", "worker.ts", "admin.ts"])(
    "%s uses EMBEDDED_PG_PORT from .env",
    { timeout: 120_000 },
    async (entry) => {
      const pg = await listener();
      // The admin command needs a subcommand; `list` only reads.
      const args = entry === "admin.ts" ? ["list"] : [];
      const started = startEntry(entry, `EMBEDDED_PG_PORT=${pg.port}\n${SECRET}`, {}, args);
      try {
        await within(
          pg.reached,
          60_000,
          () => `${entry} never connected to port ${pg.port}:\n${started.output()}`,
        );
      } finally {
        stopGroup(started.child);
        pg.close();
      }
    },
  );

  it("the real environment wins over .env", { timeout: 120_000 }, async () => {
    const fromFile = await listener();
    const fromEnv = await listener();
    const run = startEntry("migrate.ts", `EMBEDDED_PG_PORT=${fromFile.port}\n`, {
      EMBEDDED_PG_PORT: String(fromEnv.port),
    });
    let fileKnocked = false;
    void fromFile.reached.then(() => {
      fileKnocked = true;
    });
    try {
      await within(
        fromEnv.reached,
        60_000,
        () => `migrate.ts never connected to ${fromEnv.port}:\n${run.output()}`,
      );
      expect(fileKnocked).toBe(false);
    } finally {
      stopGroup(run.child);
      fromFile.close();
      fromEnv.close();
    }
  });

  it("ai-dev-server.ts listens on AI_DEV_PORT from .env", { timeout: 120_000 }, async () => {
    const port = await freePort();
    const run = startEntry("ai-dev-server.ts", `AI_DEV_PORT=${port}\n`);
    try {
      await within(
        new Promise<void>((resolve) => {
          const check = () => (run.output().includes(`:${port}`) ? resolve() : setTimeout(check, 100));
          check();
        }),
        60_000,
        () => `ai-dev-server.ts did not listen on ${port}:\n${run.output()}`,
      );
    } finally {
      stopGroup(run.child);
    }
  });

  // server.ts cannot start outside the project (Next needs its app), so its order is checked
  // by reading: every script npm runs, and server.ts they spawn, imports ./load-env first.
  it("every script of package.json imports ./load-env before anything else", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const entries = new Set(["server.ts"]);
    for (const command of Object.values(pkg.scripts)) {
      const match = command.match(/^tsx .*scripts\/([\w-]+\.ts)/);
      if (match) entries.add(match[1]!);
    }
    // The test runners set every variable themselves and must not take a developer's .env into
    // the tests; the route list generator and the import rule's check read no variable.
    const skip = new Set(["test.ts", "e2e.ts", "gen-api-routes.ts", "layers.ts"]);
    for (const entry of entries) {
      if (skip.has(entry)) continue;
      const source = fs.readFileSync(path.join(ROOT, "scripts", entry), "utf8");
      const firstImport = source.match(/^import .*$/m)?.[0];
      expect(firstImport, entry).toBe('import "./load-env";');
    }
  });
});
