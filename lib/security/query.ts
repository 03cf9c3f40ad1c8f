/** Carries the sign-in query (redirectTo, sale_id) from one auth page to another. */
export function withAuthQuery(path: string, search: Record<string, string | string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const key of ["redirectTo", "sale_id"]) {
    const v = search[key];
    if (typeof v === "string" && v) q.set(key, v);
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
