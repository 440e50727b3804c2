import { createHmac } from "node:crypto";

/**
 * Keyed with the whole `whsec_…` secret. Written here rather than borrowed from the receiver
 * helpers, so the emulator can disagree with a buggy verifier.
 */
export function signatureHeader(secret: string, rawBody: string, timestampSeconds: number): string {
  const hex = createHmac("sha256", secret).update(`${timestampSeconds}.${rawBody}`, "utf8").digest("hex");
  return `t=${timestampSeconds},sha256=${hex}`;
}
