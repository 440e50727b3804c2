import { createHash, timingSafeEqual } from "node:crypto";
import { problemReply } from "./problem-response";
import type { Reply } from "./reply";

/** The API key an emulator accepts when none is given. Test-mode style, safe to print. */
export const DEFAULT_EMULATOR_API_KEY = "sk_test_emulator";

const CHALLENGE = { "WWW-Authenticate": 'Basic realm="messaging"' };

/** The username of an `Authorization: Basic …` header, or undefined when absent or malformed. */
function basicUsername(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  // RFC 7617 requires the colon; without it the credentials are malformed.
  return colon === -1 ? undefined : decoded.slice(0, colon);
}

// Compare digests so neither the length nor the content of the key leaks through timing.
function sameKey(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Checks HTTP Basic authentication: the username is the API key, the password is empty
 * (and ignored, as most services with this scheme do). Returns the 401 reply to send, or
 * undefined when the request is authenticated. The key is never echoed.
 */
export function checkAuthentication(header: string | undefined, apiKey: string): Reply | undefined {
  if (header === undefined || header.trim() === "") {
    return problemReply(
      401,
      "unauthorized",
      "Missing HTTP Basic credentials: send the API key as the username and an empty password.",
      { headers: CHALLENGE },
    );
  }
  const username = basicUsername(header);
  if (username === undefined) {
    return problemReply(
      401,
      "unauthorized",
      "The Authorization header is not valid HTTP Basic credentials: expected 'Basic base64(<api key>:)'.",
      { headers: CHALLENGE },
    );
  }
  if (!sameKey(username, apiKey)) {
    return problemReply(401, "unauthorized", "The API key given as the HTTP Basic username is not valid.", {
      headers: CHALLENGE,
    });
  }
  return undefined;
}
