import { ConfigurationError } from "../../errors/messaging-error";
import { SignedMessage } from "../core/hmac";
import { normalizeSecrets, resolveTolerance } from "../core/settings";
import { checkSignature, nowInSeconds, type VerifiedSignature } from "../core/signature-check";
import { formatSignatureHeader, parseSignatureHeader } from "../core/signature-header";
import { nodeHmacProvider } from "./hmac";

// How webhook requests are signed is not shown in the spec. This is our documented
// assumption (docs/spec-silences.md), shared by the emulator and receivers.

/** Options of {@link verifySignature}. */
export interface VerifySignatureOptions {
  /**
   * Largest accepted distance, in seconds, between the header's `t=` and now, in either
   * direction (old requests are replays, future ones clock skew). Default
   * `DEFAULT_TOLERANCE_SECONDS` (300). Exactly the tolerance is accepted, one second
   * more is not. `0` requires the same second; `Infinity` disables the check (not
   * recommended: it allows replays). Negative or NaN is a `ConfigurationError`.
   */
  readonly toleranceSeconds?: number;
  /** "Now" in Unix seconds, for tests and replays of stored requests. Default: the system clock. */
  readonly nowSeconds?: number;
}

/**
 * Signs a webhook body the way the service is assumed to: HMAC-SHA256 keyed with the
 * endpoint secret over `"<t>.<raw body>"`.
 *
 * @param rawBody The exact bytes sent (a string is signed as UTF-8).
 * @param secret The endpoint's signing secret; several secrets give one `sha256=` entry each
 *   (the sender's side of a rotation).
 * @param timestampSeconds Signing time in whole Unix seconds. Default: now.
 * @returns The header value, `t=<unix seconds>,sha256=<64 lower-case hex>[,sha256=…]`.
 * @throws ConfigurationError when a secret is empty, or the timestamp is not whole, non-negative
 *   seconds or is 10^11 or more (milliseconds passed by mistake).
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
 * Checks that a webhook request was signed with (one of) the endpoint secret(s). Verify
 * the raw body exactly as received, before any JSON parsing.
 *
 * The header may hold several `sha256=` entries and several secrets may be given (secret
 * rotation): any pair matching is enough. Entries of other schemes are ignored, but at
 * least one `sha256=` entry is required, and at most `MAX_SIGNATURE_ENTRIES` (8) different
 * ones are accepted; one HMAC is computed per secret, however many entries. The signature is checked before the timestamp, so
 * `timestamp_out_of_tolerance` is reported only for authentic but stale (or future) requests.
 *
 * @param rawBody The request body exactly as received.
 * @param header The signature header's value (`req.headers[SIGNATURE_HEADER]`).
 * @param secretOrSecrets The endpoint's signing secret, or several during a rotation.
 * @returns The signed timestamp and which secret matched.
 * @throws SignatureVerificationError with `reason` `missing_header`, `malformed_header`,
 *   `no_matching_signature` or `timestamp_out_of_tolerance`; its message says why and never
 *   holds a secret or an expected signature.
 * @throws ConfigurationError when no secret is given, a secret is empty, an option is invalid,
 *   or `rawBody` is not a string or Buffer (a parsed body: pass the raw one).
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

// 10^11 s is the year 5138, while Date.now() has been above it since 1973: such a value is
// milliseconds passed by mistake.
const MILLISECONDS_LIKELY = 1e11;

// A parsed body (what a JSON body parser leaves in `req.body`) cannot be verified: its bytes
// are gone. Say so, rather than let node:crypto throw its own TypeError.
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
