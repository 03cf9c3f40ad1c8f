import { describe, expect, it } from "vitest";
import { checkAddress, isPublicAddress, parseAllowedPrivateHosts } from "@/lib/context/web/address-policy";
import { parseDnsServers } from "@/lib/context/web/scraper-config";

// Which addresses the web scraper may connect to (SSRF): deny by default, public unicast only.

describe("isPublicAddress", () => {
  it.each([
    ["loopback", "127.0.0.1"],
    ["loopback, the whole /8", "127.255.255.254"],
    ["private 10/8", "10.0.0.1"],
    ["private 172.16/12, first", "172.16.0.0"],
    ["private 172.16/12, last", "172.31.255.255"],
    ["private 192.168/16", "192.168.1.1"],
    ["link-local", "169.254.1.1"],
    ["metadata (AWS, GCP, Azure)", "169.254.169.254"],
    ["carrier-grade NAT, first", "100.64.0.0"],
    ["carrier-grade NAT, last (Alibaba metadata is in it)", "100.127.255.255"],
    ["multicast", "224.0.0.1"],
    ["multicast (SSDP)", "239.255.255.250"],
    ["unspecified", "0.0.0.0"],
    ["this network", "0.1.2.3"],
    ["broadcast", "255.255.255.255"],
    ["reserved", "240.0.0.1"],
    ["documentation", "192.0.2.1"],
    ["benchmarking", "198.18.0.1"],
    ["IETF protocol assignments (Oracle metadata)", "192.0.0.192"],
    ["IPv6 loopback", "::1"],
    ["IPv6 loopback, bracketed", "[::1]"],
    ["IPv6 unspecified", "::"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 unique-local", "fc00::1"],
    ["AWS metadata over IPv6", "fd00:ec2::254"],
    ["IPv6 multicast", "ff02::1"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped loopback, hex form", "::ffff:7f00:1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["IPv4-mapped metadata", "::ffff:169.254.169.254"],
    ["NAT64 of a private address", "64:ff9b::a00:1"],
    ["6to4 of a private address", "2002:a00:1::"],
    ["Teredo", "2001::1"],
    ["IPv6 documentation", "2001:db8::1"],
    ["a name, not an address", "localhost"],
    ["a short IPv4 form a resolver never answers", "127.1"],
    ["empty", ""],
  ])("refuses %s (%s)", (_what, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "172.15.255.255",
    "172.32.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
  ])("allows the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("checkAddress", () => {
  const allowed = parseAllowedPrivateHosts(
    "wiki.corp:80, 10.0.0.5:8080, [::1]:3000, 169.254.169.254:80, metadata.google.internal:80",
  );

  it("allows a public address whatever the list says", () => {
    expect(checkAddress("example.com", "93.184.215.14", 443, new Set())).toEqual({ allowed: true });
  });

  it("refuses a private address unless its host name or address is listed with that port", () => {
    expect(checkAddress("wiki.corp", "10.9.9.9", 80, allowed)).toEqual({ allowed: true });
    expect(checkAddress("WIKI.corp.", "10.9.9.9", 80, allowed)).toEqual({ allowed: true });
    expect(checkAddress("wiki.corp", "10.9.9.9", 81, allowed)).toEqual({ allowed: false, reason: "private" });
    expect(checkAddress("other.corp", "10.0.0.5", 8080, allowed)).toEqual({ allowed: true });
    expect(checkAddress("other.corp", "::ffff:10.0.0.5", 8080, allowed)).toEqual({ allowed: true });
    expect(checkAddress("other.corp", "10.0.0.5", 80, allowed)).toEqual({
      allowed: false,
      reason: "private",
    });
    expect(checkAddress("other.corp", "10.0.0.6", 8080, allowed)).toEqual({
      allowed: false,
      reason: "private",
    });
    expect(checkAddress("::1", "::1", 3000, allowed)).toEqual({ allowed: true });
    expect(checkAddress("::1", "0:0:0:0:0:0:0:1", 3000, allowed)).toEqual({ allowed: true });
    expect(checkAddress("127.0.0.1", "127.0.0.1", 3000, allowed)).toEqual({
      allowed: false,
      reason: "private",
    });
  });

  it("never allows a metadata service, even listed", () => {
    expect(checkAddress("169.254.169.254", "169.254.169.254", 80, allowed)).toEqual({
      allowed: false,
      reason: "metadata",
    });
    expect(checkAddress("metadata.google.internal", "10.9.9.9", 80, allowed)).toEqual({
      allowed: false,
      reason: "metadata",
    });
    expect(checkAddress("metadata.google.internal", "93.184.215.14", 80, new Set())).toMatchObject({
      allowed: false,
    });
    expect(checkAddress("x.test", "::ffff:169.254.169.254", 80, allowed)).toMatchObject({ allowed: false });
    expect(
      checkAddress("x.test", "fd00:ec2::254", 80, parseAllowedPrivateHosts("[fd00:ec2::254]:80")),
    ).toMatchObject({
      allowed: false,
    });
  });
});

describe("SCRAPER_ALLOW_PRIVATE_HOSTS", () => {
  it("reads host:port pairs in canonical form", () => {
    expect([
      ...parseAllowedPrivateHosts(" Intranet.Corp:80 , [0:0::1]:3000,127.0.0.1:4000,[::ffff:10.0.0.1]:81"),
    ]).toEqual(["intranet.corp:80", "[::1]:3000", "127.0.0.1:4000", "10.0.0.1:81"]);
    expect(parseAllowedPrivateHosts(undefined).size).toBe(0);
    expect(parseAllowedPrivateHosts("").size).toBe(0);
  });

  it.each([
    "intranet.corp",
    "intranet.corp:0",
    "intranet.corp:70000",
    "::1:80",
    "[zz]:80",
    "a b:80",
    "http://a:80",
  ])("refuses %s with the variable's name", (entry) => {
    expect(() => parseAllowedPrivateHosts(entry)).toThrow(/SCRAPER_ALLOW_PRIVATE_HOSTS/);
  });
});

describe("SCRAPER_DNS_SERVERS", () => {
  it("reads ip and ip:port entries", () => {
    expect(parseDnsServers("127.0.0.1:5353, 1.1.1.1,[::1]:53,::1")).toEqual([
      "127.0.0.1:5353",
      "1.1.1.1",
      "[::1]:53",
      "::1",
    ]);
    expect(parseDnsServers(undefined)).toBeUndefined();
    expect(parseDnsServers(" ")).toBeUndefined();
  });

  it.each(["dns.google", "1.2.3.4:0", "1.2.3.4:99999", "1.2.3:53"])(
    "refuses %s with the variable's name",
    (entry) => {
      expect(() => parseDnsServers(entry)).toThrow(/SCRAPER_DNS_SERVERS/);
    },
  );
});
