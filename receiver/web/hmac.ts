import { ConfigurationError } from "../../errors/messaging-error";
import type { HmacProvider } from "../core/hmac";

// Structural, so the declarations need neither the DOM library nor Node's types.
interface Subtle {
  importKey(
    format: "raw",
    key: Uint8Array,
    algorithm: { name: "HMAC"; hash: "SHA-256" },
    extractable: false,
    usages: ["sign"],
  ): Promise<unknown>;
  sign(algorithm: "HMAC", key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
}

const encoder = new TextEncoder();

function subtle(): Subtle {
  const s = (globalThis as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (s === undefined) {
    throw new ConfigurationError("webhook verification needs Web Crypto (globalThis.crypto.subtle), which this runtime lacks");
  }
  return s;
}

/** HMAC-SHA256 with Web Crypto. `sign` takes one buffer: the message is joined once per request, not once per secret. */
export const webCryptoHmacProvider: HmacProvider = {
  async hmacSha256(secret, message) {
    const crypto = subtle();
    const key = await crypto.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.sign("HMAC", key, message.contiguous()));
  },
};
