import "server-only";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { FUNCTION_KEEPALIVE_MS, FUNCTION_LOG_LINES } from "@/lib/constants";
import { denoBinaryPath } from "./deno-binary";

export type ProcessLimits = {
  startMs: number;
  heapMb: number;
  dataMb: number;
  processCpuSeconds: number;
};

export type ProcessOptions = {
  bundleDir: string;
  /** Deno's module cache, shared by all functions (Deno writes it; no function may read it). */
  denoDir: string;
  /** The process's own door into the egress gateway (egress-gateway.ts): its port and token. */
  gatewayPort: number;
  gatewayToken: string;
  secrets: Record<string, string>;
  limits: ProcessLimits;
};

/** Where the per-process limits are set: prlimit, when the system has it. */
const PRLIMIT = ["/usr/bin/prlimit", "/bin/prlimit"].find((p) => existsSync(p));

/**
 * One Deno process serving one deployed function on a loopback port. Only we can call it: each
 * request carries the process's random token, which no other process knows.
 */
export class FunctionProcess {
  readonly port: number;
  readonly token = randomBytes(24).toString("hex");
  private readonly child: ChildProcess;
  private readonly logLines: string[] = [];
  readonly ready: Promise<void>;
  /** Resolves when the process has ended, whatever ended it. */
  readonly exited: Promise<void>;
  alive = true;
  /** How the process ended: its exit code (70: the module threw, 71: no handler) or signal. */
  exitCode: number | null = null;
  exitSignal: string | null = null;
  lastUsed = Date.now();
  inFlight = 0;
  /**
   * Our connections to it, kept open between calls (a new loopback connection each call was a
   * good part of a warm call's time); closed with the process.
   */
  readonly agent = new http.Agent({ keepAlive: true, timeout: FUNCTION_KEEPALIVE_MS });

  private constructor(port: number, options: ProcessOptions) {
    this.port = port;
    const readyLine = `function-runtime-ready-${randomBytes(12).toString("hex")}`;
    const { limits } = options;
    const deno = [
      denoBinaryPath(),
      "run",
      "--no-prompt",
      "--no-config",
      "--no-lock",
      "--no-remote",
      "--no-npm",
      `--v8-flags=--max-old-space-size=${limits.heapMb}`,
      `--allow-read=${options.bundleDir}`,
      `--allow-net=127.0.0.1:${port},127.0.0.1:${options.gatewayPort}`,
      // No names, no flag: "--allow-env=" with an empty list would allow every variable.
      ...(Object.keys(options.secrets).length
        ? [`--allow-env=${Object.keys(options.secrets).join(",")}`]
        : []),
      path.join(options.bundleDir, "harness.js"),
      String(port),
      String(options.gatewayPort),
      readyLine,
    ];
    const command = PRLIMIT
      ? [
          PRLIMIT,
          `--cpu=${limits.processCpuSeconds}`,
          `--data=${limits.dataMb * 1024 * 1024}`,
          // No core dumps of a process that holds secrets.
          "--core=0",
          "--",
          ...deno,
        ]
      : deno;
    this.child = spawn(command[0], command.slice(1), {
      cwd: options.bundleDir,
      // A clean environment: nothing of ours (DATABASE_URL, AUTH_SECRET, SECRETS_KEY, ...).
      env: {
        DENO_DIR: options.denoDir,
        DENO_NO_UPDATE_CHECK: "1",
        DENO_NO_PACKAGE_JSON: "1",
        NO_COLOR: "1",
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      detached: false,
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        this.alive = false;
        resolve();
      });
      this.child.once("error", () => {
        this.alive = false;
        resolve();
      });
    });
    this.child.stdin?.on("error", () => {});
    // Written, not ended: the harness ends when stdin closes, so no process outlives our server.
    this.child.stdin?.write(
      `${JSON.stringify({ token: this.token, gatewayToken: options.gatewayToken, secrets: options.secrets })}\n`,
    );
    this.onLine("stderr", () => false);
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("start timeout")), limits.startMs);
      this.onLine("stdout", (line) => {
        if (line !== readyLine) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
      this.exited.then(() => {
        clearTimeout(timer);
        reject(new Error("exited before serving"));
      });
    });
    // Unhandled if nobody waits (a process reaped before its first call).
    this.ready.catch(() => {});
  }

  static async start(options: ProcessOptions): Promise<FunctionProcess> {
    const proc = new FunctionProcess(await freePort(), options);
    try {
      await proc.ready;
    } catch (err) {
      proc.kill();
      await proc.exited;
      throw new FunctionStartError(proc, err);
    }
    // Idle from now, not from its start: a slow start must not make it look idle to the reaper.
    proc.lastUsed = Date.now();
    return proc;
  }

  /** The function's own output, last lines first kept; never written to our logs. */
  logs(): string[] {
    return [...this.logLines];
  }

  kill(): void {
    this.agent.destroy();
    if (!this.alive) return;
    this.alive = false;
    this.child.kill("SIGKILL");
  }

  private onLine(stream: "stdout" | "stderr", ours: (line: string) => boolean): void {
    let rest = "";
    const keep = (line: string) => {
      if (ours(line)) return;
      this.logLines.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
      if (this.logLines.length > FUNCTION_LOG_LINES) this.logLines.shift();
    };
    const source = this.child[stream];
    source?.setEncoding("utf8");
    source?.on("data", (chunk: string) => {
      rest += chunk;
      // A line without end is kept to a bounded size.
      if (rest.length > 64 * 1024) {
        keep(rest);
        rest = "";
      }
      let end = rest.indexOf("\n");
      while (end >= 0) {
        keep(rest.slice(0, end));
        rest = rest.slice(end + 1);
        end = rest.indexOf("\n");
      }
    });
  }
}

/** A loopback port nobody listens on now (the process binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The process ended (or never served) before its first call; it keeps its output for the logs. */
export class FunctionStartError extends Error {
  constructor(
    readonly process: FunctionProcess,
    cause: unknown,
  ) {
    super("the function's process did not start", { cause });
  }
}
