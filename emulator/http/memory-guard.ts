import { getHeapStatistics } from "node:v8";

export interface HeapFigures {
  readonly used: number;
  readonly limit: number;
}

export interface MemoryGuardOptions {
  readonly maxInFlightBytes?: number;
  /** Share of the heap limit in use above which bodies are refused. */
  readonly heapFraction?: number;
  readonly heap?: () => HeapFigures;
}

/** Six bodies of the largest size. */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

function v8Heap(): HeapFigures {
  const stats = getHeapStatistics();
  return { used: stats.used_heap_size, limit: stats.heap_size_limit };
}

/**
 * Keeps the emulator from running out of memory however many requests arrive at once: a body
 * is admitted only when it fits beside the bodies in flight and the heap is not nearly full.
 * Refused bodies get 503 with `Retry-After`, so the process never aborts and loses what it
 * stored. One request is always let through, whatever its size.
 */
export class MemoryGuard {
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly heapFraction: number;
  private readonly heap: () => HeapFigures;

  constructor(options: MemoryGuardOptions = {}) {
    this.maxInFlight = options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES;
    this.heapFraction = options.heapFraction ?? 0.85;
    this.heap = options.heap ?? v8Heap;
  }

  get maxInFlightBytes(): number {
    return this.maxInFlight;
  }

  get inFlightBytes(): number {
    return this.inFlight;
  }

  /** Why a body of `declaredBytes` (0 when unknown) cannot be taken now; undefined when it can. */
  shortOfRoom(declaredBytes: number): string | undefined {
    if (this.inFlight > 0 && this.inFlight + declaredBytes > this.maxInFlight) {
      return `the emulator is reading ${this.inFlight} bytes of other requests' bodies, its limit for bodies in flight is ${this.maxInFlight}`;
    }
    const { used, limit } = this.heap();
    if (used > limit * this.heapFraction) {
      return `the emulator's heap is ${Math.round((used / limit) * 100)}% full`;
    }
    return undefined;
  }

  /** Call {@link release} with the total when the request ends. */
  hold(bytes: number): void {
    this.inFlight += bytes;
  }

  /** Always when nothing else is in flight. */
  hasRoomFor(bytes: number, heldBytes: number): boolean {
    return this.inFlight === heldBytes || this.inFlight + bytes <= this.maxInFlight;
  }

  release(bytes: number): void {
    this.inFlight = Math.max(0, this.inFlight - bytes);
  }
}
