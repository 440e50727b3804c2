import { ConfigurationError } from "../../errors/messaging-error";
import { SignedMessage } from "../core/hmac";
import { normalizeSecrets, resolveTolerance } from "../core/settings";
import { checkSignature, nowInSeconds, type VerifiedSignature } from "../core/signature-check";
import { formatSignatureHeader, parseSignatureHeader } from "../core/signature-header";
import { nodeHmacProvider } from "./hmac";

// The spec does not show how webhook requests are signed: this is our documented assumption (docs/spec-silences.md).

export interface VerifySignatureOptions {
  /**
   * Largest distance in seconds between the header's `t=` and now, either way (old requests are replays, future ones clock skew).
   * Default 300. `Infinity` disables the check, which allows replays.
   */
  readonly toleranceSeconds?: number;
  /** "Now" in Unix seconds, for tests and replays of stored requests. Default: the system clock. */
  readonly nowSeconds?: number;
}

/**
 * Signs a webhook body as the service is assumed to: HMAC-SHA256 keyed with the endpoint secret over `"<t>.<raw body>"`.
 * @param secret Several secrets give one `sha256=` entry each (the sender's side of a rotation).
 * @returns The header value, `t=<unix seconds>,sha256=<hex>[,sha256=…]`.
 * @throws ConfigurationError for an empty secret, or a timestamp that is not whole Unix seconds.
 */
export function signPayload(
  rawBody: string | Buffer,
  secret: string | readonly string[],
  timestampSeconds: number = nowInSeconds(),
): string {
  const secrets = normalizeSecrets(secret);
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new ConfigurationError("timestampSeconds must be whole, non-negative Unix seconds");
  }
  if (timestampSeconds >= MILLISECONDS_LIKELY) {
    throw new ConfigurationError("timestampSeconds must be Unix seconds; the value given looks like milliseconds");
  }
  return formatSignatureHeader({
    timestamp: timestampSeconds,
    signatures: secrets.map((s) => computeSignature(s, timestampSeconds, rawBody).toString("hex")),
  });
}

/**
 * Checks that a webhook request was signed with one of the endpoint's secrets; any matching `sha256=` entry and secret pair is
 * enough (rotation). The signature is checked before the timestamp, so `timestamp_out_of_tolerance` means authentic but stale.
 * @param rawBody The request body exactly as received, before any JSON parsing.
 * @throws SignatureVerificationError (see `reason`); its message never holds a secret or an expected signature.
 * @throws ConfigurationError for no usable secret, an invalid option, or a parsed body.
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | readonly string[] | undefined,
  secretOrSecrets: string | readonly string[],
  options: VerifySignatureOptions = {},
): VerifiedSignature {
  assertRawBody(rawBody);
  const secrets = normalizeSecrets(secretOrSecrets);
  const tolerance = resolveTolerance(options.toleranceSeconds);
  const now = options.nowSeconds ?? nowInSeconds();
  if (!Number.isFinite(now)) throw new ConfigurationError("nowSeconds must be a finite number of Unix seconds");

  return checkSignature(
    { body: rawBody, header: parseSignatureHeader(header), secrets, toleranceSeconds: tolerance, nowSeconds: now },
    nodeHmacProvider,
  );
}

// 10^11 s is the year 5138, and Date.now() has exceeded it since 1973: milliseconds passed by mistake.
const MILLISECONDS_LIKELY = 1e11;

// A parsed body cannot be verified (its bytes are gone): say so, rather than let node:crypto throw its own TypeError.
function assertRawBody(rawBody: unknown): void {
  if (typeof rawBody === "string" || rawBody instanceof Uint8Array) return;
  const got =
    rawBody === null ? "null" : Array.isArray(rawBody) ? "an array" : `a${typeof rawBody === "object" ? "n" : ""} ${typeof rawBody}`;
  throw new ConfigurationError(
    `verifySignature needs the raw request body (a string or Buffer, exactly as received), got ${got}: ` +
      'a JSON body parser has probably run first. With Express use express.raw({ type: "*/*" }) on the webhook route; ' +
      "with a Web Request use verifyWebhookRequest(request, secret).",
  );
}

function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): Buffer {
  // A Buffer is hashed as is: decoding it to a string could alter bytes that are not valid UTF-8.
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  return Buffer.from(nodeHmacProvider.hmacSha256(secret, new SignedMessage(timestamp, body)));
}
