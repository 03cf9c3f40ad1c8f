import { describe, expect, it } from "vitest";
import { formatCompactNumber, formatDollars } from "@/lib/format/number";

describe("formatCompactNumber", () => {
  it.each([
    [0, "0"],
    [1, "1"],
    [42, "42"],
    [999, "999"],
  ])("keeps small numbers as they are: %d → %s", (n, expected) => {
    expect(formatCompactNumber(n)).toBe(expected);
  });

  it("rounds small fractions to one decimal and drops a trailing .0", () => {
    expect(formatCompactNumber(12.34)).toBe("12.3");
    expect(formatCompactNumber(0.15)).toBe("0.2");
    expect(formatCompactNumber(2.96)).toBe("3");
    expect(formatCompactNumber(0.04)).toBe("0");
  });

  it.each([
    [1000, "1K"], // a whole thousand is "1K", not "1.0K": the trailing .0 is dropped
    [1234, "1.2K"],
    [1250, "1.3K"], // halves round up
    [1150, "1.2K"], // exact half even where 1.15 as a float would round down
    [1049, "1K"],
    [1050, "1.1K"],
    [9999, "10K"],
    [12_345, "12.3K"],
    [100_000, "100K"],
    [999_949, "999.9K"],
  ])("uses K for thousands: %d → %s", (n, expected) => {
    expect(formatCompactNumber(n)).toBe(expected);
  });

  it.each([
    [999.95, "1K"],
    [999_950, "1M"], // never "1000K"
    [999_999, "1M"],
    [999_950_000, "1B"],
  ])("moves up a unit when rounding reaches 1000: %d → %s", (n, expected) => {
    expect(formatCompactNumber(n)).toBe(expected);
  });

  it.each([
    [1_000_000, "1M"],
    [1_500_000, "1.5M"],
    [1_234_567, "1.2M"],
    [25_750_000, "25.8M"],
    [999_949_999, "999.9M"],
  ])("uses M for millions: %d → %s", (n, expected) => {
    expect(formatCompactNumber(n)).toBe(expected);
  });

  it("uses B beyond millions and stays there", () => {
    expect(formatCompactNumber(1_000_000_000)).toBe("1B");
    expect(formatCompactNumber(2_345_000_000)).toBe("2.3B");
    expect(formatCompactNumber(1_500_000_000_000)).toBe("1500B");
  });

  it("keeps the sign of negatives", () => {
    expect(formatCompactNumber(-5)).toBe("-5");
    expect(formatCompactNumber(-1234)).toBe("-1.2K");
    expect(formatCompactNumber(-1250)).toBe("-1.3K"); // away from zero, like the positive side
    expect(formatCompactNumber(-999_950)).toBe("-1M");
    expect(formatCompactNumber(-1_500_000)).toBe("-1.5M");
  });

  it("never shows a negative zero", () => {
    expect(formatCompactNumber(-0)).toBe("0");
    expect(formatCompactNumber(-0.04)).toBe("0");
  });

  it("passes non-finite values through as text", () => {
    expect(formatCompactNumber(Number.NaN)).toBe("NaN");
    expect(formatCompactNumber(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(formatCompactNumber(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
  });
});

describe("formatDollars", () => {
  it.each([
    [0, "$0.00"],
    [3, "$3.00"],
    [0.5, "$0.50"],
    [1234.5, "$1,234.50"],
    [1_234_567.891, "$1,234,567.89"],
    [999.999, "$1,000.00"],
    [0.125, "$0.13"], // exact binary half: rounds up
  ])("two decimals, $ and thousands separators: %d → %s", (n, expected) => {
    expect(formatDollars(n)).toBe(expected);
  });

  it("puts the minus before the dollar sign", () => {
    expect(formatDollars(-3)).toBe("-$3.00");
    expect(formatDollars(-1234.5)).toBe("-$1,234.50");
  });

  it("never shows a negative zero", () => {
    expect(formatDollars(-0)).toBe("$0.00");
    expect(formatDollars(-0.004)).toBe("$0.00");
  });

  it("passes non-finite values through as text", () => {
    expect(formatDollars(Number.NaN)).toBe("NaN");
    expect(formatDollars(Number.POSITIVE_INFINITY)).toBe("Infinity");
  });
});
