"use client";

import { getBearerToken } from "@/components/auth/token-store";

/** The answer of an upload: its HTTP status (0 when the network failed) and its JSON body, if any. */
export type XhrAnswer = { status: number; body: unknown };

/** The percent of an upload's progress event (0-100), or null when the total is unknown. */
export function progressPercent(loaded: number, total: number): number | null {
  if (!total) return null;
  return Math.max(0, Math.min(100, Math.round((loaded / total) * 100)));
}

/**
 * POSTs a file's bytes (or a form holding it) to one of our routes and reports the upload's progress in percent.
 * XMLHttpRequest rather than fetch, because only it reports upload progress. Resolves with any
 * HTTP answer (the caller decides what a status means); rejects only with an AbortError when
 * `signal` cancels it.
 */
export function sendWithProgress(
  url: string,
  body: Blob | FormData,
  opts: { onProgress?: (percent: number) => void; signal?: AbortSignal; contentType?: string } = {},
): Promise<XhrAnswer> {
  const { onProgress, signal, contentType } = opts;
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException("The upload was cancelled", "AbortError");
    if (signal?.aborted) return reject(aborted());
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    const token = getBearerToken();
    if (token) xhr.setRequestHeader("authorization", `Bearer ${token}`);
    if (contentType) xhr.setRequestHeader("content-type", contentType);
    xhr.upload.onprogress = (e) => {
      const percent = e.lengthComputable ? progressPercent(e.loaded, e.total) : null;
      if (percent !== null) onProgress?.(percent);
    };
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {}
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.onabort = () => reject(aborted());
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
