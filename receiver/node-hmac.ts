import { createHmac } from "node:crypto";
import type { SyncHmacProvider } from "./hmac-provider";

/** HMAC-SHA256 with `node:crypto`: synchronous, and hashes the parts without copying them together. */
export const nodeHmacProvider: SyncHmacProvider = {
  hmacSha256(secret, parts) {
    const hmac = createHmac("sha256", secret);
    for (const part of parts) hmac.update(part);
    return hmac.digest();
  },
};
