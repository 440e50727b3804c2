import { createHash, timingSafeEqual } from "node:crypto";
import { problem } from "./problem-response";

/** The API key an emulator accepts when none is given. Test-mode style, safe to print. */
export const DEFAULT_EMULATOR_API_KEY = "sk_test_emulator";

const CHALLENGE = { "WWW-Authenticate": 'Basic realm="messaging"' };

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

/** The password is ignored. The challenge makes a browser ask for the key; the key is never echoed. */
export function assertAuthenticated(header: string | undefined, apiKey: string): void {
  const reject = (detail: string) => problem(401, "unauthorized", detail, { headers: CHALLENGE });
  if (header === undefined || header.trim() === "") {
    throw reject("Missing HTTP Basic credentials: send the API key as the username and an empty password.");
  }
  const username = basicUsername(header);
  if (username === undefined) {
    throw reject("The Authorization header is not valid HTTP Basic credentials: expected 'Basic base64(<api key>:)'.");
  }
  if (!sameKey(username, apiKey)) throw reject("The API key given as the HTTP Basic username is not valid.");
}
