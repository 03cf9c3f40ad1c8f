import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSecretsKey, readEnv } from "@/lib/env";
import { buildKeyring, openSecret, sealSecret } from "@/lib/secrets/crypto";

// Sealing of space app secrets: AES-256-GCM, a random IV per value, the app and key bound in,
// the key's id beside each value so keys can rotate, the key from SECRETS_KEY or AUTH_SECRET.

const AUTH_SECRET = "unit-auth-secret-unit-auth-secret-0123456789";
const APP = "0b6a9a8e-6a57-4a8e-9d62-1a1f6bbd0c11";
const OTHER_APP = "5c1b4b0e-2f57-4f3e-8d1a-7b2c9e0d4a22";
const hexKey = () => randomBytes(32).toString("hex");

describe("secrets key format", () => {
  it("takes 32 bytes as hex, base64 or base64url, and nothing else", () => {
    const bytes = randomBytes(32);
    expect(parseSecretsKey(bytes.toString("hex"))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString("base64"))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString("base64url"))).toEqual(bytes);
    for (const bad of [
      "",
      "short",
      randomBytes(16).toString("hex"),
      randomBytes(31).toString("base64"),
      `${hexKey()}0`,
    ]) {
      expect(parseSecretsKey(bad)).toBeNull();
    }
  });

  it("refuses a malformed SECRETS_KEY at start, naming it, without echoing it", () => {
    const base = { AUTH_SECRET, DATABASE_URL: "postgres://x@localhost/x" };
    expect(() => readEnv({ ...base, SECRETS_KEY: "not-a-key-value" })).toThrow(
      /SECRETS_KEY must be 32 bytes/,
    );
    try {
      readEnv({ ...base, SECRETS_KEY: "not-a-key-value" });
    } catch (err) {
      expect((err as Error).message).not.toContain("not-a-key-value");
    }
    expect(() => readEnv({ ...base, SECRETS_KEY_PREVIOUS: `${hexKey()},oops` })).toThrow(
      /SECRETS_KEY_PREVIOUS/,
    );
    expect(readEnv({ ...base, SECRETS_KEY: hexKey() }).SECRETS_KEY).toBeDefined();
    expect(readEnv(base).SECRETS_KEY).toBeUndefined();
  });
});

describe("sealing a secret", () => {
  it("opens what it sealed; the sealed text holds no trace of the value, and each seal has its own IV", () => {
    const ring = buildKeyring({ secretsKey: hexKey(), authSecret: AUTH_SECRET });
    const a = sealSecret(APP, "STRIPE_KEY", "sk_live_canary", ring);
    const b = sealSecret(APP, "STRIPE_KEY", "sk_live_canary", ring);
    expect(a.sealedValue).not.toContain("canary");
    expect(Buffer.from(a.sealedValue.split(".")[1]!, "base64url").toString()).not.toContain("canary");
    expect(a.sealedValue).not.toBe(b.sealedValue);
    expect(a.sealedValue.split(".")[0]).not.toBe(b.sealedValue.split(".")[0]);
    expect(a.keyId).toBe(ring.current.id);
    expect(openSecret(APP, "STRIPE_KEY", a, ring)).toBe("sk_live_canary");
  });

  it("fails to open under another app or key name, or altered", () => {
    const ring = buildKeyring({ authSecret: AUTH_SECRET });
    const sealed = sealSecret(APP, "API_KEY", "value", ring);
    expect(openSecret(OTHER_APP, "API_KEY", sealed, ring)).toBeNull();
    expect(openSecret(APP, "OTHER_KEY", sealed, ring)).toBeNull();
    const [iv, body, tag] = sealed.sealedValue.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0]! ^= 1;
    expect(
      openSecret(
        APP,
        "API_KEY",
        { ...sealed, sealedValue: `${iv}.${flipped.toString("base64url")}.${tag}` },
        ring,
      ),
    ).toBeNull();
    // A shortened tag is refused, not accepted as GCM would by default.
    expect(
      openSecret(APP, "API_KEY", { ...sealed, sealedValue: `${iv}.${body}.${tag!.slice(0, 8)}` }, ring),
    ).toBeNull();
    expect(openSecret(APP, "API_KEY", { ...sealed, sealedValue: "garbage" }, ring)).toBeNull();
  });

  it("derives its key from AUTH_SECRET when SECRETS_KEY is unset: another AUTH_SECRET opens nothing", () => {
    const ring = buildKeyring({ authSecret: AUTH_SECRET });
    const sealed = sealSecret(APP, "K", "v", ring);
    expect(openSecret(APP, "K", sealed, buildKeyring({ authSecret: AUTH_SECRET }))).toBe("v");
    const other = buildKeyring({ authSecret: `${AUTH_SECRET}-changed` });
    expect(other.current.id).not.toBe(ring.current.id);
    expect(openSecret(APP, "K", sealed, other)).toBeNull();
  });

  it("rotates: values sealed under a previous key open while it is in SECRETS_KEY_PREVIOUS", () => {
    const oldKey = hexKey();
    const newKey = randomBytes(32).toString("base64");
    const before = buildKeyring({ secretsKey: oldKey, authSecret: AUTH_SECRET });
    const sealed = sealSecret(APP, "K", "kept", before);
    const after = buildKeyring({ secretsKey: newKey, previousKeys: oldKey, authSecret: AUTH_SECRET });
    expect(after.current.id).not.toBe(before.current.id);
    expect(openSecret(APP, "K", sealed, after)).toBe("kept");
    expect(sealSecret(APP, "K", "kept", after).keyId).toBe(after.current.id);
    // Without the old key, the value is lost (its builder enters it again).
    expect(
      openSecret(APP, "K", sealed, buildKeyring({ secretsKey: newKey, authSecret: AUTH_SECRET })),
    ).toBeNull();
  });

  it("still opens values sealed under the AUTH_SECRET key once SECRETS_KEY is set", () => {
    const derived = sealSecret(APP, "K", "from before", buildKeyring({ authSecret: AUTH_SECRET }));
    const ring = buildKeyring({ secretsKey: hexKey(), authSecret: AUTH_SECRET });
    expect(openSecret(APP, "K", derived, ring)).toBe("from before");
  });
});
