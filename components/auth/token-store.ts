"use client";

// The bearer token lives in memory only (never in localStorage, where scripts could read it).
let token: string | null = null;

export function getBearerToken(): string | null {
  return token;
}

export function setBearerToken(value: string | null): void {
  token = value;
}
