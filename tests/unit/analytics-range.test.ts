import { describe, expect, it } from "vitest";
import { niceTicks } from "@/components/analytics/format";
import { addDays, isIsoDay, lastDays, rangeDays, resolveRange, todayUtc } from "@/lib/analytics/range";
import { ANALYTICS_DEFAULT_DAYS } from "@/lib/constants";

// Ranges of UTC days: the same on the server and in every browser, whatever the time zone.
describe("analytics ranges", () => {
  const lateEvening = new Date("2026-03-31T23:30:00-05:00"); // already 1 April in UTC

  it("takes today as the UTC day", () => {
    expect(todayUtc(lateEvening)).toBe("2026-04-01");
    expect(todayUtc(new Date("2026-04-01T00:00:00.000Z"))).toBe("2026-04-01");
    expect(todayUtc(new Date("2026-03-31T23:59:59.999Z"))).toBe("2026-03-31");
  });

  it("moves across months, years and leap days", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(rangeDays("2026-03-01", "2026-03-01")).toBe(1);
    expect(rangeDays("2026-01-01", "2026-12-31")).toBe(365);
    expect(rangeDays("2026-03-02", "2026-03-01")).toBe(0);
  });

  it("counts the last N days with today", () => {
    expect(lastDays(7, lateEvening)).toEqual({ from: "2026-03-26", to: "2026-04-01" });
    expect(rangeDays(lastDays(90).from, lastDays(90).to)).toBe(90);
  });

  it("fills a missing end: the default length, or up to today", () => {
    expect(resolveRange({}, lateEvening)).toEqual(lastDays(ANALYTICS_DEFAULT_DAYS, lateEvening));
    expect(resolveRange({ to: "2026-03-31" }, lateEvening)).toEqual({ from: "2026-03-02", to: "2026-03-31" });
    expect(resolveRange({ from: "2026-03-20" }, lateEvening)).toEqual({
      from: "2026-03-20",
      to: "2026-04-01",
    });
    expect(resolveRange({ from: "2026-03-20", to: "2026-03-10" })).toEqual({
      from: "2026-03-20",
      to: "2026-03-10",
    });
  });

  it("accepts real calendar days only", () => {
    for (const ok of ["2026-02-28", "2028-02-29", "1999-12-31"]) expect(isIsoDay(ok)).toBe(true);
    for (const bad of ["2026-02-29", "2026-13-01", "2026-3-1", "2026-03-01T00:00:00Z", "", "tomorrow"])
      expect(isIsoDay(bad)).toBe(false);
  });
});

describe("chart ticks", () => {
  it("steps by 1, 2 or 5 times a power of ten, never below the smallest step", () => {
    expect(niceTicks(0, 1)).toEqual([0]);
    expect(niceTicks(17, 1)).toEqual([0, 5, 10, 15, 20]);
    expect(niceTicks(3, 1)).toEqual([0, 1, 2, 3]);
    // Dollars: cents at least, so no two ticks read the same "$0.01".
    expect(niceTicks(0.012, 0.01)).toEqual([0, 0.01, 0.02]);
    expect(niceTicks(0.19, 0.01)).toEqual([0, 0.05, 0.1, 0.15, 0.2]);
    expect(niceTicks(1234, 1)).toEqual([0, 500, 1000, 1500]);
  });
});
