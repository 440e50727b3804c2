import { createReadStream } from "node:fs";
import * as path from "node:path";
import { parse as parseCsv, type CsvError } from "csv-parse";
import { findJsonHazards, jsonHazardField } from "../schemas/json-value";
import { jsonArrayItems, JsonStructureError } from "./json-array-items";
import { utf8Lines, type Line } from "./utf8-lines";

/** The file formats `messaging send` reads. */
export const FILE_FORMATS = ["ndjson", "json", "csv"] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

const EXTENSIONS: Readonly<Record<string, FileFormat>> = { ".ndjson": "ndjson", ".jsonl": "ndjson", ".json": "json", ".csv": "csv" };

/** The format named by `--format`, or else by the file's extension; a sentence saying why not when neither does. */
export function fileFormat(file: string, given: string | undefined): FileFormat | string {
  if (given !== undefined) {
    return (FILE_FORMATS as readonly string[]).includes(given)
      ? (given as FileFormat)
      : `--format must be one of ${FILE_FORMATS.join(", ")}, not '${given}'`;
  }
  const extension = path.extname(file).toLowerCase();
  return (
    EXTENSIONS[extension] ??
    `cannot tell the format of '${file}' from its extension${extension ? ` '${extension}'` : ""}: name it .ndjson, .jsonl, .json or .csv, or pass --format ndjson|json|csv`
  );
}

/**
 * One message as read from the file: where it is, its source text (what the chunk digests
 * are computed from), and its value or why it could not be read.
 */
export interface Entry {
  /** `line N` (NDJSON, CSV: where the record starts) or `item N (line L)` (JSON). */
  readonly location: string;
  /** The message's text as written: the line, the CSV record, the JSON element. */
  readonly source: string;
  /** The value read; undefined when `problem` is set. */
  readonly value?: unknown;
  /** Why the message could not be read (not JSON, invalid UTF-8, a `__proto__` key…), with the field when there is one. */
  readonly problem?: { readonly field?: string; readonly reason: string };
}

/** The file cannot be read as a whole (missing, unreadable, not the format it claims). */
export class FileError extends Error {}

/**
 * Reads the messages of a file as a stream, in arrays of entries (one per chunk read), in
 * file order: NDJSON (one message a line, blank lines skipped), JSON (an array of messages,
 * or `{ "messages": [...] }`), CSV (a header row, then `to` — numbers separated by `;` —
 * and `body`, or `template_id` and `model.<name>` columns). A UTF-8 byte order mark is
 * ignored. Memory stays flat: nothing but the current chunk and entry is held.
 *
 * Each entry is checked for what JSON or CSV can carry but a message cannot: invalid UTF-8
 * (never replaced by U+FFFD), numbers out of range (`1e400`, which JSON.parse turns into
 * Infinity), keys named `__proto__`, nesting deeper than `MAX_JSON_DEPTH` (32); for CSV,
 * duplicate or unknown columns. Such an entry carries a `problem` naming the field; the
 * message schema judges the rest.
 * @param onBytes called with every chunk of the file's bytes, in order (e.g. to hash the file)
 * @throws FileError when the file as a whole cannot be read
 */
export async function* readEntries(
  file: string,
  format: FileFormat,
  onBytes?: (chunk: Buffer) => void,
): AsyncGenerator<Entry[], void, undefined> {
  const lines = utf8Lines(fileChunks(file, onBytes));
  if (format === "ndjson") yield* ndjsonEntries(lines);
  else if (format === "json") yield* jsonEntries(lines);
  else yield* csvEntries(lines);
}

async function* fileChunks(file: string, onBytes: ((chunk: Buffer) => void) | undefined): AsyncGenerator<Buffer, void, undefined> {
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
      onBytes?.(chunk as Buffer);
      yield chunk as Buffer;
    }
  } catch (error) {
    throw new FileError(`cannot be read: ${(error as Error).message}`);
  }
}

async function* ndjsonEntries(lines: AsyncIterable<Line[]>): AsyncGenerator<Entry[], void, undefined> {
  for await (const batch of lines) {
    const entries: Entry[] = [];
    for (const line of batch) {
      const location = `line ${line.number}`;
      if (line.text === undefined) entries.push({ location, source: "", problem: { reason: "not valid UTF-8" } });
      else if (line.text.trim() !== "") entries.push(jsonEntry(location, line.text));
    }
    if (entries.length > 0) yield entries;
  }
}

async function* jsonEntries(lines: AsyncIterable<Line[]>): AsyncGenerator<Entry[], void, undefined> {
  try {
    for await (const items of jsonArrayItems(lines)) {
      yield items.map((item) => jsonEntry(`item ${item.index} (line ${item.line})`, item.text));
    }
  } catch (error) {
    if (error instanceof JsonStructureError) throw new FileError(`not valid JSON (line ${error.line}): ${error.message}`);
    throw error;
  }
}

function jsonEntry(location: string, text: string): Entry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { location, source: text, problem: { reason: `not valid JSON: ${(error as Error).message}` } };
  }
  const problem = unsafeValue(value);
  return problem === undefined ? { location, source: text, value } : { location, source: text, problem };
}

/**
 * The first thing in a parsed JSON value that would not reach the service as written (the
 * schemas' own rules, `schemas/json-value.ts`): a key `__proto__` (JSON.parse keeps it as an
 * own member, but JavaScript objects and zod's records drop it or change a prototype with
 * it), a number JSON.parse made infinite (`1e400`), nesting deeper than `MAX_JSON_DEPTH`.
 */
function unsafeValue(value: unknown): { field: string; reason: string } | undefined {
  const [hazard] = findJsonHazards(value, { limit: 1 });
  return hazard === undefined ? undefined : { field: jsonHazardField(hazard), reason: hazard.message };
}

const MODEL_PREFIX = "model.";
const KNOWN_COLUMNS = new Set(["to", "tos", "body", "template_id"]);

/** Why a CSV header row cannot be used, or undefined. */
function headerProblem(columns: readonly string[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [i, column] of columns.entries()) {
    const earlier = seen.get(column);
    if (earlier !== undefined) return `duplicate column '${column}' (columns ${earlier + 1} and ${i + 1}): only one may hold the value`;
    seen.set(column, i);
    if (column === "__proto__" || column === `${MODEL_PREFIX}__proto__`) return `column '${column}' is not allowed`;
    if (!KNOWN_COLUMNS.has(column) && !(column.startsWith(MODEL_PREFIX) && column.length > MODEL_PREFIX.length)) {
      return `unknown column '${column}' (expected to, body, template_id and model.<name>)`;
    }
  }
  if (!seen.has("to") && !seen.has("tos")) return `no 'to' column (recipients separated by ';'); the header has: ${columns.join(", ")}`;
  return undefined;
}

async function* csvEntries(lines: AsyncIterable<Line[]>): AsyncGenerator<Entry[], void, undefined> {
  let header: string[] | undefined;
  const invalidLines: Entry[] = [];
  const parser = parseCsv({
    // Records as arrays: the header is checked here and the message built below, never by
    // assigning column names to an object (a `__proto__` column would change its prototype).
    skip_empty_lines: true,
    trim: true,
    info: true,
    raw: true,
    relax_column_count: false,
  });
  // Lines are fed as text with '\n' breaks, so csv-parse's line numbers are the file's;
  // a line that is not UTF-8 is fed empty (and reported) so the numbering stays right.
  const feed = (async () => {
    try {
      for await (const batch of lines) {
        if (parser.destroyed) return;
        let text = "";
        for (const line of batch) {
          if (line.text === undefined) {
            invalidLines.push({ location: `line ${line.number}`, source: "", problem: { reason: "not valid UTF-8" } });
            text += "\n";
          } else text += `${line.text}\n`;
        }
        if (!parser.write(text)) {
          await new Promise((resolve) => {
            parser.once("drain", resolve);
            parser.once("close", resolve);
          });
        }
      }
      parser.end();
    } catch (error) {
      if (!parser.destroyed) parser.destroy(error as Error);
    }
  })();
  try {
    let entries: Entry[] = [];
    for await (const { record, raw, info } of parser as AsyncIterable<{ record: string[]; raw: string; info: { lines: number } }>) {
      if (invalidLines.length > 0) entries.push(...invalidLines.splice(0));
      if (header === undefined) {
        header = record;
        const problem = headerProblem(header);
        if (problem !== undefined) throw new FileError(`line ${startLine(raw, info.lines)}: ${problem}`);
        continue;
      }
      entries.push({ location: `line ${startLine(raw, info.lines)}`, source: raw, value: csvMessage(header, record) });
      if (entries.length >= 1000) {
        yield entries;
        entries = [];
      }
    }
    entries.push(...invalidLines.splice(0));
    if (entries.length > 0) yield entries;
  } catch (error) {
    if ((error as CsvError).code?.startsWith("CSV_")) throw new FileError(`not valid CSV: ${(error as Error).message}`);
    throw error;
  } finally {
    if (!parser.destroyed) parser.destroy();
    await feed;
  }
}

function csvMessage(header: readonly string[], record: readonly string[]): Record<string, unknown> {
  let to = "";
  let body = "";
  let templateId = "";
  const model: Record<string, string> = {};
  header.forEach((column, i) => {
    const value = record[i] ?? "";
    if (column === "to" || column === "tos") to = value;
    else if (column === "body") body = value;
    else if (column === "template_id") templateId = value;
    else if (value !== "") model[column.slice(MODEL_PREFIX.length)] = value;
  });
  const message: Record<string, unknown> = {
    tos: to
      .split(";")
      .map((item) => item.trim())
      .filter(Boolean),
  };
  if (body) message.body = body;
  if (templateId) message.template = { id: templateId, model };
  return message;
}

// `info.lines` is the line a record ends on; a quoted field can span lines, and users look
// for the line it starts on. `raw` may begin with the blank lines skipped before it.
function startLine(raw: string, endLine: number): number {
  const record = raw.replace(/^(?:[ \t]*\n)+/, "").replace(/\n$/, "");
  return endLine - (record.split("\n").length - 1);
}
