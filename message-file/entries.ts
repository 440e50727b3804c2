/** One message read from a file, and the checks every file format shares. */
import { tooLargeForOneCall } from "../schemas/one-call";

export interface Entry {
  /** `line N` or `item N (line L)`. */
  readonly location: string;
  /**
   * What a call's key and the file-changed check are made of: the text as written; for CSV the
   * message as sent (canonical JSON), since a record means nothing without the header.
   */
  readonly source: string;
  readonly value?: unknown;
  readonly problem?: { readonly field?: string; readonly reason: string };
  /** How the file names a field (`tos[0]` → `column 'to' (recipient 1)`), so errors name what the user wrote. */
  readonly nameOf?: (field: string) => string;
}

export class FileError extends Error {}

/** @param escapeFree no string of the value needs a JSON escape (see `jsonByteLength`) */
export function withSizeCheck(entry: Entry, escapeFree = false): Entry {
  const tooLarge = tooLargeForOneCall(entry.value, { source: entry.source, escapeFree });
  if (tooLarge === undefined) return entry;
  return { location: entry.location, source: entry.source, problem: { reason: `${tooLarge} (--batch-size 1): shorten it or split it` } };
}
