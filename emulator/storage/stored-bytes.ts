/**
 * The byte budget counts 2 bytes per UTF-16 code unit: the most V8 or a `StoredText` takes per
 * character, so it bounds memory, and `length` costs nothing to compute.
 */
import type { StoredText } from "./stored-text";

/** For the objects around each stored record's text. */
export const RECORD_OVERHEAD_BYTES = 128;

export function stringBytes(text: string | StoredText): number {
  return 2 * text.length;
}

export function recordBytes(value: unknown): number {
  return stringBytes(JSON.stringify(value)) + RECORD_OVERHEAD_BYTES;
}

export const DEFAULT_MAX_STORED_BYTES = 256 * 1024 * 1024;
