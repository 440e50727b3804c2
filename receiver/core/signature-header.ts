import { SignatureVerificationError } from "../../errors/messaging-error";

/**
 * The signature header, parsed: `t=<unix seconds>,sha256=<hex>[,sha256=<hex>…]`.
 * Entries of other schemes (e.g. `v0=…`) are ignored.
 */
export interface SignatureHeader {
  /** The `t=` value: when the request was signed, in Unix seconds. */
  readonly timestamp: number;
  /** Every different `sha256=` value, lower-case hex (64 characters each), in header order; at most {@link MAX_SIGNATURE_ENTRIES}. */
  readonly signatures: readonly string[];
}

/**
 * Most `sha256=` entries a header may hold: 8. A rotation needs one per secret being rolled
 * (two, rarely three); a cap keeps a forged header from making the receiver compare
 * hundreds of entries. Duplicates count once.
 */
export const MAX_SIGNATURE_ENTRIES = 8;

/** Most entries of any scheme a header may hold: 32 (entries of other schemes are ignored, but still parsed). */
export const MAX_HEADER_ENTRIES = 32;

const TIMESTAMP = /^\d{1,15}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Parses the signature header as Node delivers it (a string, or an array when the header
 * was repeated; repeated headers are treated as one list of entries).
 *
 * @throws SignatureVerificationError `missing_header` when there is no header or it is
 *   blank; `malformed_header` when an entry is not `key=value`, `t` is missing, not whole
 *   seconds or given twice with different values, a `sha256` value is not 64 hex
 *   characters, no `sha256` entry is present, more than {@link MAX_SIGNATURE_ENTRIES} different
 *   `sha256` entries or more than {@link MAX_HEADER_ENTRIES} entries in all are present.
 */
export function parseSignatureHeader(value: string | readonly string[] | undefined): SignatureHeader {
  const values = value === undefined ? [] : typeof value === "string" ? [value] : value;
  const entries = values
    .join(",")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) {
    throw new SignatureVerificationError("missing_header", "the request has no signature header (or it is empty)");
  }

  if (entries.length > MAX_HEADER_ENTRIES) throw malformed(`it has ${entries.length} entries; at most ${MAX_HEADER_ENTRIES} are accepted`);

  let timestamp: number | undefined;
  const signatures = new Set<string>();
  const otherSchemes = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const eq = entry.indexOf("=");
    if (eq <= 0) {
      throw malformed(`entry ${index + 1} is not of the form key=value`);
    }
    const key = entry.slice(0, eq).trim().toLowerCase();
    const val = entry.slice(eq + 1).trim();
    if (key === "t") {
      if (!TIMESTAMP.test(val)) throw malformed("t= must be whole Unix seconds (digits only)");
      const t = Number(val);
      if (timestamp !== undefined && timestamp !== t) throw malformed("the header holds two different t= timestamps");
      timestamp = t;
    } else if (key === "sha256") {
      const hex = val.toLowerCase();
      if (!SHA256_HEX.test(hex)) {
        throw malformed(`a sha256= value must be 64 hexadecimal characters (got ${val.length} characters)`);
      }
      signatures.add(hex);
      if (signatures.size > MAX_SIGNATURE_ENTRIES) {
        throw malformed(`it has more than ${MAX_SIGNATURE_ENTRIES} different sha256= entries (MAX_SIGNATURE_ENTRIES)`);
      }
    } else {
      otherSchemes.add(key);
    }
  }
  if (timestamp === undefined) throw malformed("no t= timestamp entry");
  if (signatures.size === 0) {
    const seen = otherSchemes.size > 0 ? ` (schemes present: ${[...otherSchemes].join(", ")})` : "";
    throw malformed(`no sha256= signature entry${seen}`);
  }
  return { timestamp, signatures: [...signatures] };
}

/** Renders the header value from its parts: `t=<timestamp>,sha256=<hex>,…`. */
export function formatSignatureHeader(header: SignatureHeader): string {
  return [`t=${header.timestamp}`, ...header.signatures.map((hex) => `sha256=${hex}`)].join(",");
}

function malformed(why: string): SignatureVerificationError {
  return new SignatureVerificationError(
    "malformed_header",
    `the signature header is malformed: ${why}; expected t=<unix seconds>,sha256=<64 hex characters>`,
  );
}
