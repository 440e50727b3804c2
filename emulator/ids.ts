import { randomBytes } from "node:crypto";

/**
 * A fresh identifier: `prefix` then 24 hex characters (96 random bits), e.g. `we_3f9c…`.
 * Random rather than sequential so tests cannot come to depend on an order the service
 * never promised.
 */
export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString("hex")}`;
}
