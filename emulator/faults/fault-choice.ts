import type { ProblemTitle } from "../../schemas";
import { RETRY_AFTER_SECONDS } from "../http";

/**
 * All but `drop_after_processing` happen before any work. That one does the work (and stores
 * its idempotent answer), then drops the connection: the case idempotency keys exist for.
 */
export const FAULT_KINDS = [
  "internal_error",
  "service_unavailable",
  "rate_limited",
  "reset_before_processing",
  "drop_after_processing",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A seeded PRNG, not for cryptography: a fault run must repeat exactly for a given seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws once to decide failure and, only when it fails, once more to pick among `kinds`. */
export function chooseFault(failureRate: number, kinds: readonly FaultKind[], random: () => number): FaultKind | undefined {
  if (!(failureRate > 0) || kinds.length === 0) return undefined;
  if (random() >= failureRate) return undefined;
  const index = Math.min(kinds.length - 1, Math.floor(random() * kinds.length));
  return kinds[index];
}

export function faultStatus(
  kind: FaultKind,
): { status: number; title: ProblemTitle; detail: string; headers: Record<string, string> } | undefined {
  switch (kind) {
    case "internal_error":
      return { status: 500, title: "internal_error", detail: "Injected fault: internal server error.", headers: {} };
    case "service_unavailable":
      return { status: 503, title: "service_unavailable", detail: "Injected fault: service unavailable.", headers: {} };
    case "rate_limited":
      return {
        status: 429,
        title: "rate_limited",
        detail: `Injected fault: too many requests; retry after ${RETRY_AFTER_SECONDS} s.`,
        headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
      };
    case "reset_before_processing":
    case "drop_after_processing":
      return undefined;
  }
}
