import { SignatureVerificationError } from "../../errors/messaging-error";

/** The signature header, parsed: `t=<unix seconds>,sha256=<hex>[,sha256=<hex>…]`; other schemes are ignored. */
export interface SignatureHeader {
  readonly timestamp: number;
  /** Every different `sha256=` value, lower-case hex, in header order. */
  readonly signatures: readonly string[];
}

/** Most different `sha256=` entries: a rotation needs two or three, and the cap keeps a forged header from costing hundreds of compares. */
export const MAX_SIGNATURE_ENTRIES = 8;

/** Most entries of any scheme: other schemes are ignored, but still parsed. */
export const MAX_HEADER_ENTRIES = 32;

const TIMESTAMP = /^\d{1,15}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Parses the signature header; a repeated header (an array) is one list of entries.
 * @throws SignatureVerificationError `missing_header` or `malformed_header`, saying why.
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

export function formatSignatureHeader(header: SignatureHeader): string {
  return [`t=${header.timestamp}`, ...header.signatures.map((hex) => `sha256=${hex}`)].join(",");
}

function malformed(why: string): SignatureVerificationError {
  return new SignatureVerificationError(
    "malformed_header",
    `the signature header is malformed: ${why}; expected t=<unix seconds>,sha256=<64 hex characters>`,
  );
}
