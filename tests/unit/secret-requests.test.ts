import { describe, expect, it } from "vitest";
import { SECRET_VALUE_MAX } from "@/lib/constants";
import { buildFunctionCode } from "@/lib/functions/bundle";
import { checkSecretRows, duplicateKey, missingSecrets, requestedSecrets } from "@/lib/secrets/requests";
import { ActionParser } from "@/lib/space/action-parser";
import { assistantInstructions } from "@/lib/space/assistant-prompt";
import { chatActionOf } from "@/lib/space/chat-actions";

describe("requestedSecrets", () => {
  it("reads the request_secrets body, and a bare list", () => {
    const body = { secrets: [{ secretName: "STRIPE_KEY", description: "Your Stripe secret key" }] };
    expect(requestedSecrets(body)).toEqual([
      { secretName: "STRIPE_KEY", description: "Your Stripe secret key" },
    ]);
    expect(requestedSecrets([{ secretName: "A" }])).toEqual([{ secretName: "A", description: "" }]);
  });

  it("skips what could never be set, and names seen before", () => {
    expect(
      requestedSecrets({
        secrets: [
          null,
          "KEY",
          { secretName: 42 },
          { secretName: "" },
          { secretName: "has space" },
          { secretName: "X".repeat(200) },
          { secretName: "OK", description: 7 },
          { secretName: "OK", description: "again" },
        ],
      }),
    ).toEqual([{ secretName: "OK", description: "" }]);
    expect(requestedSecrets(undefined)).toEqual([]);
    expect(requestedSecrets("text")).toEqual([]);
  });
});

describe("the assistant's prompt", () => {
  it("teaches a request_secrets body the card reads", () => {
    const prompt = assistantInstructions({ appName: "A", files: [], discussMode: false, filesBudget: 100 });
    const example = /<action type="request_secrets">.*?<\/action>/.exec(prompt)?.[0];
    expect(example).toBeDefined();
    const parser = new ActionParser();
    parser.push(example!);
    parser.finish();
    const action = chatActionOf("m", parser.actions[0]!);
    expect(requestedSecrets(action.data)).toEqual([
      { secretName: "STRIPE_SECRET_KEY", description: expect.stringContaining("Stripe secret key") },
    ]);
  });

  it("teaches a function that builds: Deno.serve, a secret by Deno.env.get, data by @app/client only", async () => {
    const prompt = assistantInstructions({ appName: "A", files: [], discussMode: false, filesBudget: 100 });
    const example = /<action type="add_file" path="functions\/[^"]+">[\s\S]*?<\/action>/.exec(prompt)?.[0];
    expect(example).toBeDefined();
    const parser = new ActionParser();
    parser.push(example!);
    parser.finish();
    const code = parser.actions[0]!.content;
    expect(code).toContain("Deno.serve(");
    expect(code).toContain('Deno.env.get("STRIPE_SECRET_KEY")');
    // The runtime's own build: the example imports nothing it refuses.
    expect(await buildFunctionCode("example.ts", code)).toContain("Deno.serve(");
    expect(prompt).toContain("service role");
  });
});

describe("missingSecrets", () => {
  it("reports each required secret absent from the stored ones with its name and description", () => {
    const required = [
      { secretName: "A", description: "first" },
      { secretName: "B", description: "second" },
    ];
    expect(missingSecrets(required, new Set(["A"]))).toEqual([{ secretName: "B", description: "second" }]);
    expect(missingSecrets(required, new Set(["A", "B"]))).toEqual([]);
  });
});

describe("checkSecretRows", () => {
  const row = (key: string, value: string, instructions = "") => ({ key, value, instructions });
  const none = new Set<string>();

  it("needs both key and value in every row", () => {
    expect(checkSecretRows([row("A", "1"), row("", "2")], none)).toBe("secretsKeyAndValueRequired");
    expect(checkSecretRows([row("A", "")], none)).toBe("secretsKeyAndValueRequired");
    expect(checkSecretRows([row("  ", "x")], none)).toBe("secretsKeyAndValueRequired");
    expect(checkSecretRows([row("A", "1"), row("B", "2", "note")], none)).toBeNull();
  });

  it("refuses a malformed key, a key already saved or typed twice, and an over-long value", () => {
    expect(checkSecretRows([row("1A", "v")], none)).toBe("secretKeyInvalid");
    expect(checkSecretRows([row("A-B", "v")], none)).toBe("secretKeyInvalid");
    expect(checkSecretRows([row("A", "v")], new Set(["A"]))).toBe("secretKeyDuplicate");
    expect(checkSecretRows([row("A", "v"), row("A", "w")], none)).toBe("secretKeyDuplicate");
    expect(duplicateKey([row("A", "v"), row("A", "w")], none)).toBe("A");
    expect(checkSecretRows([row("A", "v".repeat(SECRET_VALUE_MAX + 1))], none)).toBe("secretValueTooLong");
  });
});
