import { describe, expect, it } from "vitest";
import { hashPassword, isWeakPassword, verifyPassword } from "@/lib/auth/password";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/constants";

describe("isWeakPassword", () => {
  it.each([
    "password",
    "Password",
    "PASSWORD",
    "12345678",
    "qwertyuiop",
    "iloveyou",
    "password1",
    "sunshine",
    "football",
  ])("calls the common password %j weak", (p) => {
    expect(isWeakPassword(p)).toBe(true);
  });

  it("bounds the length at 8 and 128, both inclusive", () => {
    expect(PASSWORD_MIN).toBe(8);
    expect(PASSWORD_MAX).toBe(128);
    const base = "Xk9#qL2v";
    expect(isWeakPassword(base.slice(0, 7))).toBe(true);
    expect(isWeakPassword(base)).toBe(false);
    expect(isWeakPassword(base + "z".repeat(120))).toBe(false);
    expect(isWeakPassword(base + "z".repeat(121))).toBe(true);
    expect(isWeakPassword(base + "z".repeat(1000))).toBe(true);
  });

  it("calls empty and near-uniform passwords weak", () => {
    expect(isWeakPassword("")).toBe(true);
    expect(isWeakPassword("aaaaaaaaaaaa")).toBe(true);
    expect(isWeakPassword("abababababab")).toBe(true);
  });

  it("accepts a long passphrase and an uncommon password", () => {
    expect(isWeakPassword("correct horse battery 42")).toBe(false);
    expect(isWeakPassword("v8#Lq2!mZp")).toBe(false);
  });
});

describe("hashPassword / verifyPassword", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse battery 42");
    expect(hash.startsWith("$argon2id$")).toBe(true);
    expect(await verifyPassword(hash, "correct horse battery 42")).toBe(true);
    expect(await verifyPassword(hash, "correct horse battery 43")).toBe(false);
    expect(await verifyPassword(hash, "")).toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    const [a, b] = await Promise.all([hashPassword("same password 1"), hashPassword("same password 1")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, "same password 1")).toBe(true);
    expect(await verifyPassword(b, "same password 1")).toBe(true);
  });

  it("never truncates: two 200-character passwords differing only at the end do not verify against each other", async () => {
    const prefix = "p".repeat(100) + "Q".repeat(99);
    const one = `${prefix}1`;
    const two = `${prefix}2`;
    expect(one).toHaveLength(200);
    const [h1, h2] = await Promise.all([hashPassword(one), hashPassword(two)]);
    expect(await verifyPassword(h1, one)).toBe(true);
    expect(await verifyPassword(h2, two)).toBe(true);
    expect(await verifyPassword(h1, two)).toBe(false);
    expect(await verifyPassword(h2, one)).toBe(false);
  });

  it("also beyond 72 bytes (bcrypt's limit) in multi-byte characters", async () => {
    const prefix = "é".repeat(60); // 120 bytes in UTF-8
    const h = await hashPassword(`${prefix}a`);
    expect(await verifyPassword(h, `${prefix}b`)).toBe(false);
    expect(await verifyPassword(h, `${prefix}a`)).toBe(true);
  });

  it("refuses without a hash (Google-only users) and on a malformed hash, without throwing", async () => {
    expect(await verifyPassword(null, "anything at all")).toBe(false);
    expect(await verifyPassword("not-a-hash", "anything at all")).toBe(false);
  });
});
