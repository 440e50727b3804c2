import { randomFillSync } from "node:crypto";

// Random bytes are drawn 4 KiB at a time: a call into the random source per id showed in
// the emulator's CPU profile under load.
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let used = POOL_BYTES;

/** Random rather than sequential, so tests cannot come to depend on an order the service never promised. */
export function randomId(prefix: string, bytes = 12): string {
  if (bytes > POOL_BYTES) throw new RangeError(`randomId: at most ${POOL_BYTES} bytes`);
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const id = `${prefix}${pool.toString("hex", used, used + bytes)}`;
  used += bytes;
  return id;
}
