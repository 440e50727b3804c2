/** One message read from a file, and the checks every file format shares. */
import { MAX_REQUEST_BODY_BYTES } from "../schemas/http";
import { jsonByteLength } from "../schemas/json-size";

/**
 * One message as read from the file: where it is, its source text (what the chunk digests
 * are computed from), and its value or why it could not be read.
 */
export interface Entry {
  /** `line N` (NDJSON, CSV: where the record starts) or `item N (line L)` (JSON). */
  readonly location: string;
  /**
   * The text a call's key and the file-changed check are made of: the message's text as
   * written (the NDJSON line, the JSON element); for CSV, the message as sent (its canonical
   * JSON), since a record means nothing without the header.
   */
  readonly source: string;
  /** The value read; undefined when `problem` is set. */
  readonly value?: unknown;
  /** Why the message could not be read (not JSON, invalid UTF-8, a `__proto__` key…), with the field when there is one. */
  readonly problem?: { readonly field?: string; readonly reason: string };
  /**
   * How the file names a field of the message (`tos[0]` → `column 'to' (recipient 1)` for
   * CSV), when it differs from the field's path; errors then name what the user wrote.
   */
  readonly nameOf?: (field: string) => string;
}

/** The file cannot be read as a whole (missing, unreadable, not the format it claims). */
export class FileError extends Error {}

// Room in a call for the envelope around one message: `{"stream":…,"messages":[…]}`.
const ENVELOPE_BYTES = 1024;

/**
 * The entry, or the entry with a problem when its message could not fit in a call of its own.
 * A message's JSON takes at most 6 bytes per UTF-16 unit of its source (a control character
 * becomes `\u00XX`), so only sources near the limit are measured (`jsonByteLength`, exact).
 * @param escapeFree no string of the value needs a JSON escape (see `jsonByteLength`)
 */
export function withSizeCheck(entry: Entry, escapeFree = false): Entry {
  if (entry.source.length * 6 + ENVELOPE_BYTES <= MAX_REQUEST_BODY_BYTES) return entry;
  const bytes = jsonByteLength(entry.value, { escapeFree });
  if (bytes + ENVELOPE_BYTES <= MAX_REQUEST_BODY_BYTES) return entry;
  return {
    location: entry.location,
    source: entry.source,
    problem: {
      reason:
        `the message takes ${bytes} bytes as JSON; one call carries at most ${MAX_REQUEST_BODY_BYTES} bytes (10 MiB) in all, ` +
        "so it cannot be sent even alone (--batch-size 1): shorten it or split it",
    },
  };
}
