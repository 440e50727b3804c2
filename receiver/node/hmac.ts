import { createHmac } from "node:crypto";
import type { SyncHmacProvider } from "../core/hmac";

/** HMAC-SHA256 with `node:crypto`: synchronous, and hashes the message's parts one after the other, without copying the body. */
export const nodeHmacProvider: SyncHmacProvider = {
  hmacSha256(secret, message) {
    const hmac = createHmac("sha256", secret);
    for (const part of message.parts) hmac.update(part);
    return hmac.digest();
  },
};
