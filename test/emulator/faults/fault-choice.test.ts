import { chooseFault, FAULT_KINDS, faultStatus, mulberry32, type FaultKind } from "../../../emulator/faults/fault-choice";

/** A random source that returns the given values in turn. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error("random source drawn more often than expected");
    return values[i++];
  };
}

describe("mulberry32", () => {
  it("repeats the same sequence for the same seed", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const first = Array.from({ length: 20 }, () => a());
    expect(Array.from({ length: 20 }, () => b())).toEqual(first);
  });

  it("gives another sequence for another seed", () => {
    const a = mulberry32(1);
    const b = mulberry32(2);
    expect(Array.from({ length: 5 }, () => b())).not.toEqual(Array.from({ length: 5 }, () => a()));
  });

  it("stays within [0, 1)", () => {
    const random = mulberry32(7);
    for (let i = 0; i < 10000; i++) {
      const value = random();
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

describe("chooseFault", () => {
  it("never fails at rate 0 and does not draw", () => {
    expect(chooseFault(0, FAULT_KINDS, sequence())).toBeUndefined();
  });

  it("serves the request when the first draw is at or above the rate", () => {
    expect(chooseFault(0.3, FAULT_KINDS, sequence(0.3))).toBeUndefined();
    expect(chooseFault(0.3, FAULT_KINDS, sequence(0.99))).toBeUndefined();
  });

  it("fails when the first draw is below the rate and picks the kind with the second", () => {
    expect(chooseFault(0.3, FAULT_KINDS, sequence(0.29, 0))).toBe(FAULT_KINDS[0]);
    expect(chooseFault(0.3, FAULT_KINDS, sequence(0.1, 0.999))).toBe(FAULT_KINDS[FAULT_KINDS.length - 1]);
    expect(chooseFault(0.3, FAULT_KINDS, sequence(0.1, 0.5))).toBe(FAULT_KINDS[2]);
  });

  it("always fails at rate 1", () => {
    const random = mulberry32(3);
    for (let i = 0; i < 1000; i++) expect(chooseFault(1, FAULT_KINDS, random)).toBeDefined();
  });

  it("chooses only among the given kinds", () => {
    const random = mulberry32(9);
    for (let i = 0; i < 200; i++) expect(chooseFault(1, ["rate_limited"], random)).toBe("rate_limited");
  });

  it("never fails with no kinds to choose from", () => {
    expect(chooseFault(1, [], sequence())).toBeUndefined();
  });

  it("reaches every kind at rate 1 over enough requests", () => {
    const random = mulberry32(123);
    const seen = new Set<FaultKind | undefined>();
    for (let i = 0; i < 500; i++) seen.add(chooseFault(1, FAULT_KINDS, random));
    expect([...seen].sort()).toEqual([...FAULT_KINDS].sort());
  });

  it("fails roughly at the configured rate", () => {
    const random = mulberry32(2024);
    let failures = 0;
    for (let i = 0; i < 10000; i++) if (chooseFault(0.3, FAULT_KINDS, random) !== undefined) failures++;
    expect(failures).toBeGreaterThan(2700);
    expect(failures).toBeLessThan(3300);
  });
});

describe("faultStatus", () => {
  it("maps the status faults to 500, 503 and 429 with Retry-After", () => {
    expect(faultStatus("internal_error")).toMatchObject({ status: 500, title: "internal_error" });
    expect(faultStatus("service_unavailable")).toMatchObject({ status: 503, title: "service_unavailable" });
    expect(faultStatus("rate_limited")).toMatchObject({ status: 429, title: "rate_limited", headers: { "Retry-After": "1" } });
  });

  it("has no status for the connection faults", () => {
    expect(faultStatus("reset_before_processing")).toBeUndefined();
    expect(faultStatus("drop_after_processing")).toBeUndefined();
  });
});
