import { describe, expect, it } from "vitest";
import {
  SMTP_CONNECTION_TIMEOUT_MS,
  SMTP_GREETING_TIMEOUT_MS,
  SMTP_SOCKET_TIMEOUT_MS,
} from "@/lib/constants";
import { smtpUrlWithTimeouts } from "@/lib/email/send";

describe("smtpUrlWithTimeouts", () => {
  it("adds the session timeouts to SMTP_URL, keeps its credentials and options", () => {
    const url = new URL(smtpUrlWithTimeouts("smtps://us%40er:p%23ss@mail.example.com:465?pool=true"));
    expect(url.protocol).toBe("smtps:");
    expect(url.username).toBe("us%40er");
    expect(url.password).toBe("p%23ss");
    expect(url.host).toBe("mail.example.com:465");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      pool: "true",
      connectionTimeout: String(SMTP_CONNECTION_TIMEOUT_MS),
      greetingTimeout: String(SMTP_GREETING_TIMEOUT_MS),
      socketTimeout: String(SMTP_SOCKET_TIMEOUT_MS),
    });
  });

  it("leaves a timeout the operator set", () => {
    const url = new URL(smtpUrlWithTimeouts("smtp://127.0.0.1:25?greetingTimeout=60000"));
    expect(url.searchParams.get("greetingTimeout")).toBe("60000");
    expect(url.searchParams.get("socketTimeout")).toBe(String(SMTP_SOCKET_TIMEOUT_MS));
  });
});
