// Number formats from the spec: "K for thousands and M for millions, one decimal" and
// "Dollar format: two decimals". Both are fixed to en-US so the server's and the browser's
// renders agree (no hydration mismatch from the visitor's locale).

const compactUnits = [
  { size: 1, suffix: "" },
  { size: 1e3, suffix: "K" },
  { size: 1e6, suffix: "M" },
  // Beyond the spec's K and M, so a billion reads "1B" rather than "1000M".
  { size: 1e9, suffix: "B" },
] as const;

/**
 * 999 → "999", 1234 → "1.2K", 1000 → "1K" (a trailing ".0" is dropped), 1_500_000 → "1.5M",
 * 999_950 → "1M" (rounding that reaches 1000 moves up a unit). Halves round away from zero,
 * negatives keep their sign, and anything that rounds to zero is plain "0".
 */
export function formatCompactNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);

  let unit = 0;
  while (unit < compactUnits.length - 1 && abs >= compactUnits[unit + 1].size) unit++;
  let tenths = toTenths(abs, compactUnits[unit].size);
  if (tenths >= 10_000 && unit < compactUnits.length - 1) {
    unit++;
    tenths = toTenths(abs, compactUnits[unit].size);
  }
  if (tenths === 0) return "0";

  const whole = Math.floor(tenths / 10);
  const decimal = tenths % 10;
  const digits = decimal === 0 ? `${whole}` : `${whole}.${decimal}`;
  return `${n < 0 ? "-" : ""}${digits}${compactUnits[unit].suffix}`;
}

// Rounded in tenths of the unit, computed as (abs * 10) / size so that halves stay exact
// (1150 * 10 / 1000 = 11.5) rather than going through floats like 1.15, really 1.1499999.
function toTenths(abs: number, size: number): number {
  return Math.round((abs * 10) / size);
}

const dollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  // A value that rounds to zero shows "$0.00", never "-$0.00".
  signDisplay: "negative",
});

/** 1234.5 → "$1,234.50", -3 → "-$3.00". */
export function formatDollars(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return dollars.format(n);
}
