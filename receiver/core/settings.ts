import { ConfigurationError } from "../../errors/messaging-error";
import { SIGNATURE_HEADER } from "../../schemas/http";
import type { ReplayGuard } from "./replay-guard";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The options every receiver entry point shares (both handlers and `verifyWebhookRequest`). */
export interface ReceiverOptions {
  /** Any case. Default {@link SIGNATURE_HEADER}. */
  readonly headerName?: string;
  /** Signature timestamp tolerance in seconds. Default 300. */
  readonly toleranceSeconds?: number;
  /** Larger bodies get 413. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Processes each event once: a duplicate is answered 204 without `onEvent` (`verifyWebhookRequest` throws `duplicate_event`). */
  readonly replayGuard?: ReplayGuard;
}

export interface ReceiverSettings {
  readonly secrets: readonly string[];
  readonly toleranceSeconds: number;
  readonly headerName: string;
  readonly maxBodyBytes: number;
  readonly replayGuard?: ReplayGuard;
}

// RFC 9110 token characters: what Headers.get and node:http accept as a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return value === null ? "null" : typeof value;
}

// Checked once, so a mistake is a ConfigurationError naming the option, never a TypeError from deep inside.
export function resolveReceiverSettings(secretOrSecrets: string | readonly string[], options: ReceiverOptions): ReceiverSettings {
  const secrets = normalizeSecrets(secretOrSecrets);
  const toleranceSeconds = resolveTolerance(options.toleranceSeconds);
  const headerName = options.headerName ?? SIGNATURE_HEADER;
  if (typeof headerName !== "string" || !HEADER_NAME.test(headerName)) {
    throw new ConfigurationError(
      `headerName must be an HTTP header name such as "${SIGNATURE_HEADER}" (letters, digits and !#$%&'*+.^_\`|~-), ` +
        `got ${shown(headerName)}; leave it out for the default`,
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (typeof maxBodyBytes !== "number" || !Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new ConfigurationError(`maxBodyBytes must be a positive whole number of bytes, got ${String(maxBodyBytes)}`);
  }
  const guard = options.replayGuard;
  if (guard !== undefined && (typeof guard !== "object" || guard === null || typeof guard.seen !== "function")) {
    throw new ConfigurationError("replayGuard must be an object with a seen(eventId) method, such as new MemoryReplayGuard()");
  }
  if (guard !== undefined && guard.claim !== undefined && (typeof guard.claim !== "function" || typeof guard.complete !== "function")) {
    // A claimed id would stay "in progress" for ever, and every redelivery of it be refused.
    throw new ConfigurationError(
      "replayGuard: a guard with claim(eventId) needs complete(eventId) too, to record the event once processed",
    );
  }
  return { secrets, toleranceSeconds, headerName: headerName.toLowerCase(), maxBodyBytes, replayGuard: guard };
}

export function resolveTolerance(toleranceSeconds: number | undefined): number {
  const tolerance = toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== "number" || Number.isNaN(tolerance) || tolerance < 0) {
    throw new ConfigurationError("toleranceSeconds must be a number of seconds >= 0 (Infinity disables the check)");
  }
  return tolerance;
}

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
