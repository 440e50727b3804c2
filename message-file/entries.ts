/** One message read from a file, and the checks every file format shares. */
import { tooLargeForOneCall } from "../schemas/one-call";

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

/**
 * The entry, or the entry with a problem when its message could not fit in a call of its own.
 * @param escapeFree no string of the value needs a JSON escape (see `jsonByteLength`)
 */
export function withSizeCheck(entry: Entry, escapeFree = false): Entry {
  const tooLarge = tooLargeForOneCall(entry.value, { source: entry.source, escapeFree });
  if (tooLarge === undefined) return entry;
  return { location: entry.location, source: entry.source, problem: { reason: `${tooLarge} (--batch-size 1): shorten it or split it` } };
}
