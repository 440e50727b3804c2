import { ConfigurationError } from "../errors/messaging-error";
import type { HmacProvider } from "./hmac-provider";

// The structural type of what is used, so that the declarations need neither the DOM library
// nor Node's types.
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

// globalThis.crypto.subtle: Node ≥ 20, Deno, Bun, Cloudflare Workers, browsers, Next.js routes.
function subtle(): Subtle {
  const s = (globalThis as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (s === undefined) {
    throw new ConfigurationError("webhook verification needs Web Crypto (globalThis.crypto.subtle), which this runtime lacks");
  }
  return s;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const whole = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.byteLength;
  }
  return whole;
}

/** HMAC-SHA256 with Web Crypto (`crypto.subtle`), for any runtime. */
export const webCryptoHmacProvider: HmacProvider = {
  async hmacSha256(secret, parts) {
    const crypto = subtle();
    const key = await crypto.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.sign("HMAC", key, concat(parts)));
  },
};
