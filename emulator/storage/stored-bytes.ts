/**
 * How the emulator's byte budget (`--max-stored-bytes`) counts what it keeps: 2 bytes for
 * every UTF-16 code unit of the stored text. That is what V8 takes at most for a string's
 * characters (1 byte each when all are Latin-1, else 2), and what a `StoredText` takes at
 * most (1 byte each when all are ASCII, else 2), so the count bounds the memory of what is
 * stored, and it costs nothing to compute (`length`). Each record adds
 * {@link RECORD_OVERHEAD_BYTES} for the objects around its text.
 */
import type { StoredText } from "./stored-text";

/** Counted for the object and bookkeeping around each stored record, in bytes. */
export const RECORD_OVERHEAD_BYTES = 128;

/** Bytes `text` counts against the budget (2 per UTF-16 code unit), kept as a string or a `StoredText`. */
export function stringBytes(text: string | StoredText): number {
  return 2 * text.length;
}

/** Bytes a JSON-serializable record counts: its JSON text plus {@link RECORD_OVERHEAD_BYTES}. */
export function recordBytes(value: unknown): number {
  return stringBytes(JSON.stringify(value)) + RECORD_OVERHEAD_BYTES;
}

/** Default `--max-stored-bytes`: 256 MiB. */
export const DEFAULT_MAX_STORED_BYTES = 256 * 1024 * 1024;
