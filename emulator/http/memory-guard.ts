import { getHeapStatistics } from "node:v8";

/** Heap figures the guard reads, in bytes. */
export interface HeapFigures {
  readonly used: number;
  readonly limit: number;
}

/** Settings of a {@link MemoryGuard}. */
export interface MemoryGuardOptions {
  /**
   * Most request-body bytes held at once by requests being read or handled; a request that
   * would go over it waits (503). One request is always let through, whatever its size.
   * Default {@link DEFAULT_MAX_IN_FLIGHT_BYTES}.
   */
  readonly maxInFlightBytes?: number;
  /** Share of the heap limit in use above which bodies are refused (503). Default 0.85. */
  readonly heapFraction?: number;
  /** Reads the heap (tests). Default `v8.getHeapStatistics()`. */
  readonly heap?: () => HeapFigures;
}

/** Default {@link MemoryGuardOptions.maxInFlightBytes}: 64 MiB, six bodies of the largest size. */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

function v8Heap(): HeapFigures {
  const stats = getHeapStatistics();
  return { used: stats.used_heap_size, limit: stats.heap_size_limit };
}

/**
 * Keeps the emulator from running out of memory under load, however many requests arrive at
 * once. A body is admitted only when the bytes of the bodies in flight — those being read,
 * counted as they arrive, and those admitted but not read yet, counted at their declared size —
 * plus its declared size fit in `maxInFlightBytes`, and the heap is not nearly full. A body of
 * unknown size (chunked) is counted as it arrives and stopped once it would go over. Refused
 * bodies are answered 503 with `Retry-After`, so the process never aborts and what it stored is
 * never lost. (Stored data has its own budget, `--max-stored-bytes`.)
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

  /** The most body bytes held at once. */
  get maxInFlightBytes(): number {
    return this.maxInFlight;
  }

  /** Body bytes held now by requests in flight. */
  get inFlightBytes(): number {
    return this.inFlight;
  }

  /**
   * Why a body of `declaredBytes` (0 when unknown) cannot be taken now, as a sentence; or
   * undefined when it can.
   */
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

  /** Counts `bytes` of a body being read (call {@link release} with the total when the request ends). */
  hold(bytes: number): void {
    this.inFlight += bytes;
  }

  /**
   * Whether `bytes` more of a body that already holds `heldBytes` fit: always when nothing
   * else is in flight (one request is always let through), else within `maxInFlightBytes`.
   */
  hasRoomFor(bytes: number, heldBytes: number): boolean {
    return this.inFlight === heldBytes || this.inFlight + bytes <= this.maxInFlight;
  }

  /** Forgets `bytes` counted by {@link hold}. */
  release(bytes: number): void {
    this.inFlight = Math.max(0, this.inFlight - bytes);
  }
}
