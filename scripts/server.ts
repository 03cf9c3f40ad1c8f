import "./load-env";
import http from "node:http";
import next from "next";
import { tagPeer } from "../lib/security/client-ip";
import { answerMalformedPath, hasMalformedPath } from "../lib/security/malformed-path";

// The HTTP server of `npm run dev`, `npm start`, the e2e tests and the benchmarks: Next's own
// request handler behind a few lines of ours. Route handlers cannot see the socket, and Next keeps
// a client's X-Forwarded-For as it came, so this server records the socket's address in a
// header nobody else can set (lib/security/client-ip.ts). A path whose percent escapes do not
// decode, which Next's router answers with a bare 500, is answered 400 here
// (lib/security/malformed-path.ts).
//
// Run as `tsx scripts/server.ts`: development unless NODE_ENV=production; PORT (3000), HOSTNAME.

async function main() {
  const dev = process.env.NODE_ENV !== "production";
  const port = Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOSTNAME ?? "localhost";
  const httpServer = http.createServer();
  // httpServer: Next attaches its dev websocket (hot reload) to it.
  const app = next({ dev, port, hostname, httpServer });
  await app.prepare();
  const handle = app.getRequestHandler();
  httpServer.on("request", (req, res) => {
    tagPeer(req);
    // Next's router cannot decode such a path and would answer a bare 500: 400 here instead.
    if (hasMalformedPath(req.url ?? "/")) return answerMalformedPath(req, res, handle);
    void handle(req, res);
  });
  httpServer.listen(port, () =>
    console.log(`Ready on http://${hostname}:${port}${dev ? " (development)" : ""}`),
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => httpServer.close(() => process.exit(0)));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
