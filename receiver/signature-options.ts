import { ConfigurationError, SignatureVerificationError } from "../errors/messaging-error";

// Settings and checks shared by the Node (`signature.ts`) and Web Crypto (`verify-request.ts`)
// verifiers. No runtime-specific import here.

/** Largest accepted distance between the signature's `t=` and now, in seconds (5 minutes). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The tolerance to apply, in seconds: the default when none is given. Internal; throws ConfigurationError. */
export function resolveTolerance(toleranceSeconds: number | undefined): number {
  const tolerance = toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== "number" || Number.isNaN(tolerance) || tolerance < 0) {
    throw new ConfigurationError("toleranceSeconds must be a number of seconds >= 0 (Infinity disables the check)");
  }
  return tolerance;
}

/** The secrets as a non-empty list of non-empty strings. Internal; throws ConfigurationError. */
export function normalizeSecrets(secretOrSecrets: string | readonly string[]): readonly string[] {
  const secrets = typeof secretOrSecrets === "string" ? [secretOrSecrets] : secretOrSecrets;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new ConfigurationError("no webhook signing secret given: pass the endpoint's secret (or a list of secrets)");
  }
  secrets.forEach((secret, index) => {
    if (typeof secret !== "string" || secret === "") {
      const where = secrets.length > 1 ? ` (secret at index ${index})` : "";
      throw new ConfigurationError(`a webhook signing secret is empty or not a string${where}; is its environment variable set?`);
    }
  });
  return secrets;
}

/** Now, in whole Unix seconds. */
export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Throws `timestamp_out_of_tolerance` when `timestamp` is further than `tolerance` seconds from `now`. */
export function checkTimestamp(timestamp: number, now: number, tolerance: number): void {
  if (!Number.isFinite(now)) throw new ConfigurationError("nowSeconds must be a finite number of Unix seconds");
  const age = now - timestamp;
  if (Math.abs(age) > tolerance) {
    const when = age > 0 ? `${age} s in the past` : `${-age} s in the future`;
    throw new SignatureVerificationError(
      "timestamp_out_of_tolerance",
      `the signature timestamp t=${timestamp} is ${when}, beyond the ${tolerance} s tolerance ` +
        "(a replayed request, or the receiver's clock is off)",
    );
  }
}

/** The `no_matching_signature` error: says how many signatures and secrets were tried, and what to check. */
export function noMatchingSignature(signatureCount: number, secretCount: number): SignatureVerificationError {
  return new SignatureVerificationError(
    "no_matching_signature",
    `none of the ${signatureCount} sha256 signature(s) in the header matches the body signed with ` +
      `the ${secretCount} configured secret(s); check that the secret is this endpoint's and that ` +
      "the raw body is verified exactly as received (before any JSON parsing)",
  );
}
