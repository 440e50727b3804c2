import { createHmac } from "node:crypto";

/**
 * The value of a delivery's signature header (`SIGNATURE_HEADER`, `schemas/http.ts`):
 * `t=<unix seconds>,sha256=<hex>`, where hex is HMAC-SHA256 keyed with the endpoint secret
 * (the whole `whsec_…` string, UTF-8) over `"<t>.<raw body>"`. Written here rather than borrowed from the receiver helpers so the
 * emulator can disagree with a buggy verifier.
 */
export function signatureHeader(secret: string, rawBody: string, timestampSeconds: number): string {
  const hex = createHmac("sha256", secret).update(`${timestampSeconds}.${rawBody}`, "utf8").digest("hex");
  return `t=${timestampSeconds},sha256=${hex}`;
}
