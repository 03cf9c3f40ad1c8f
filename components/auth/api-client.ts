"use client";

import type { ErrorBody } from "@/lib/errors";
import { authMessages } from "@/lib/messages/auth";
import { getBearerToken } from "./token-store";

/**
 * A failed API call, carrying the `{ error: { code, message } }` the server answered and the
 * answer's other fields (ErrorBody's extras, e.g. the `upgradeReason` of a PLAN_LIMIT refusal).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  /** The error a failed answer's JSON (ErrorBody, or anything else) reads as; `fallback` when it has no message. */
  static fromBody(status: number, body: unknown, fallback: string): ApiError {
    const { error, ...extra } = isRecord(body) ? (body as Partial<ErrorBody>) : {};
    const code = typeof error?.code === "string" ? error.code : "INTERNAL";
    const message = typeof error?.message === "string" ? error.message : fallback;
    return new ApiError(status, code, message, extra);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** fetch for our own /api routes: JSON in and out, bearer token when we hold one. */
export async function apiFetch<T = Record<string, unknown>>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  const token = getBearerToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "NETWORK", authMessages.internal);
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw ApiError.fromBody(res.status, data, authMessages.internal);
  return data as T;
}
