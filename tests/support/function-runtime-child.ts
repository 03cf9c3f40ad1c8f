// A server process that starts a function and then dies without stopping it (the orphan test of
// tests/integration/function-runtime.test.ts): prints the runtime's root, then exits at once.
import { createFunctionRuntime } from "@/lib/functions/runtime";

async function main() {
  const runtime = createFunctionRuntime();
  const res = await runtime.call({
    appId: "00000000-0000-4000-8000-0000000000cc",
    name: "orphan.ts",
    code: "Deno.serve(() => new Response('alive'));",
    secrets: {},
    request: { method: "GET", url: "/" },
  });
  console.log(JSON.stringify({ root: runtime.root, status: res.status }));
  process.kill(process.pid, "SIGKILL");
}

void main();
