import dgram from "node:dgram";
import ipaddr from "ipaddr.js";

// A tiny DNS server over UDP answering A and AAAA queries from a table, for the web scraper's
// SSRF tests: it lets a test name resolve to a private address, or to one address the first time
// and another afterwards (DNS rebinding), through the real protocol the resolver speaks.

const TYPE_A = 1;
const TYPE_AAAA = 28;

/** The addresses of a name; a function gets how many queries of that type came before. */
export type DnsAnswer = string[] | ((previousQueries: number) => string[]);

export type LocalDnsServer = {
  /** "127.0.0.1:port", as SCRAPER_DNS_SERVERS takes it. */
  address: string;
  /** Records by lower-case name; a name not here is answered NXDOMAIN. */
  records: Map<string, { A?: DnsAnswer; AAAA?: DnsAnswer }>;
  /** Every question asked, in order. */
  queries: { name: string; type: "A" | "AAAA" | number }[];
  close(): Promise<void>;
};

export async function startDnsServer(): Promise<LocalDnsServer> {
  const socket = dgram.createSocket("udp4");
  const server: LocalDnsServer = {
    address: "",
    records: new Map(),
    queries: [],
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (msg, peer) => {
    const answer = respond(server, msg);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  server.address = `127.0.0.1:${socket.address().port}`;
  return server;
}

function respond(server: LocalDnsServer, msg: Buffer): Buffer | undefined {
  if (msg.length < 12 || msg.readUInt16BE(4) < 1) return undefined;
  // The first question: labels up to a zero byte, then type and class.
  let pos = 12;
  const labels: string[] = [];
  while (pos < msg.length && msg[pos] !== 0) {
    const len = msg[pos]!;
    labels.push(msg.subarray(pos + 1, pos + 1 + len).toString("latin1"));
    pos += 1 + len;
  }
  const questionEnd = pos + 5;
  if (questionEnd > msg.length) return undefined;
  const qtype = msg.readUInt16BE(pos + 1);
  const name = labels.join(".").toLowerCase();
  const type = qtype === TYPE_A ? "A" : qtype === TYPE_AAAA ? "AAAA" : qtype;
  const previous = server.queries.filter((q) => q.name === name && q.type === type).length;
  server.queries.push({ name, type });

  const record = server.records.get(name);
  const entry = typeof type === "string" ? record?.[type] : undefined;
  const addresses = typeof entry === "function" ? entry(previous) : (entry ?? []);
  const answers = addresses.map((address) => {
    const rdata = Buffer.from(ipaddr.parse(address).toByteArray());
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(qtype, 2);
    rr.writeUInt16BE(1, 4); // class IN
    rr.writeUInt32BE(0, 6); // TTL 0: never cached, every lookup asks again
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });

  const header = Buffer.alloc(12);
  header.writeUInt16BE(msg.readUInt16BE(0), 0); // the query's id
  const recursionDesired = msg.readUInt16BE(2) & 0x0100;
  const rcode = record ? 0 : 3; // NXDOMAIN for an unknown name
  header.writeUInt16BE(0x8000 | 0x0400 | recursionDesired | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, msg.subarray(12, questionEnd), ...answers]);
}
