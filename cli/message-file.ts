import { createReadStream } from "node:fs";
import * as path from "node:path";
import { parse as parseCsv, CsvError } from "csv-parse";
import { MAX_REQUEST_BODY_BYTES } from "../schemas/http";
import { jsonByteLength } from "../schemas/json-size";
import { jsonHazardField } from "../schemas/json-value";
import { parseStrictJson } from "../schemas/strict-json";
import { jsonArrayItems, JsonStructureError, type DeclaredStream } from "./json-array-items";
import { NotUtf8Error, utf8Lines, type Line } from "./utf8-lines";

export type { DeclaredStream } from "./json-array-items";

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
 * or `{ "messages": [...], "stream"?: "..." }`), CSV (a header row, then `to` — numbers
 * separated by `;` — and `body`, or `template_id` and `model.<name>` columns). UTF-8 only: a
 * UTF-8 byte order mark is ignored, a UTF-16 or UTF-32 file is refused by name. Lines end
 * with LF, CRLF or a lone CR. Memory stays flat: nothing but the current chunk and entry is
 * held, and a long line costs time in proportion to its bytes.
 *
 * JSON is read under the package's JSON rule (`schemas/strict-json.ts`): a duplicate key, a
 * number a double does not read back exactly, `-0`, a number beyond ±(2^53 − 1) or out of
 * range, a `__proto__` key, nesting deeper than `MAX_JSON_DEPTH` (32), or invalid UTF-8
 * (never replaced by U+FFFD) make the entry carry a `problem` naming the field. CSV values
 * are kept exactly as written (see {@link csvMessage}). A message that could not fit in a call
 * of its own (`MAX_REQUEST_BODY_BYTES`) has a problem too. The message schema judges the rest.
 * @param onBytes called with every chunk of the file's bytes, in order (e.g. to hash the file)
 * @param onStream called when a JSON file's top-level object names a `stream`
 * @throws FileError when the file as a whole cannot be read
 */
export async function* readEntries(
  file: string,
  format: FileFormat,
  onBytes?: (chunk: Buffer) => void,
  onStream?: (declared: DeclaredStream) => void,
): AsyncGenerator<Entry[], void, undefined> {
  const lines = utf8Lines(fileChunks(file, onBytes));
  try {
    if (format === "ndjson") yield* ndjsonEntries(lines);
    else if (format === "json") yield* jsonEntries(lines, onStream);
    else yield* csvEntries(lines);
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new FileError(error.message);
    throw error;
  }
}

/**
 * The stream to send `file` on (see {@link chooseStream}): for a JSON file its top-level
 * `stream` is read first (a pass over the file's structure; its messages are not parsed).
 * @throws FileError for a conflict with `--stream`, or a file that cannot be read
 */
export async function streamForFile(file: string, format: FileFormat, given: string | undefined): Promise<string> {
  if (format !== "json") return chooseStream(given, undefined);
  let declared: DeclaredStream | undefined;
  try {
    for await (const items of jsonArrayItems(utf8Lines(fileChunks(file, undefined)), (found) => (declared = found))) void items;
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new FileError(error.message);
    // The structure's own errors are reported, with every message's, by the reading pass.
    if (!(error instanceof JsonStructureError)) throw error;
  }
  return chooseStream(given, declared);
}

/**
 * The stream to send on: `--stream` when given, else the JSON file's top-level `stream`, else
 * `transactional`.
 * @throws FileError when both are given and differ (the file's would otherwise be ignored)
 */
export function chooseStream(given: string | undefined, declared: DeclaredStream | undefined): string {
  if (declared !== undefined && given !== undefined && given !== declared.stream) {
    throw new FileError(
      `line ${declared.line}: the file's "stream" is '${declared.stream}' but --stream is '${given}': remove one, or make them agree`,
    );
  }
  return given ?? declared?.stream ?? "transactional";
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

async function* jsonEntries(
  lines: AsyncIterable<Line[]>,
  onStream: ((declared: DeclaredStream) => void) | undefined,
): AsyncGenerator<Entry[], void, undefined> {
  try {
    for await (const items of jsonArrayItems(lines, onStream)) {
      yield items.map((item) => jsonEntry(`item ${item.index} (line ${item.line})`, item.text));
    }
  } catch (error) {
    if (error instanceof JsonStructureError) throw new FileError(`not valid JSON (line ${error.line}): ${error.message}`);
    throw error;
  }
}

function jsonEntry(location: string, text: string): Entry {
  const parsed = parseStrictJson(text, { limit: 1 });
  if (!parsed.ok) {
    if (parsed.syntax !== undefined) return { location, source: text, problem: { reason: `not valid JSON: ${parsed.syntax}` } };
    const [hazard] = parsed.problems;
    return { location, source: text, problem: { field: jsonHazardField(hazard), reason: hazard.message } };
  }
  // JSON text read from valid UTF-8 with no backslash holds no string JSON would escape.
  return withSizeCheck({ location, source: text, value: parsed.value }, !text.includes("\\"));
}

// Room in a call for the envelope around one message: `{"stream":…,"messages":[…]}`.
const ENVELOPE_BYTES = 1024;

/**
 * The entry, or the entry with a problem when its message could not fit in a call of its own.
 * A message's JSON takes at most 6 bytes per UTF-16 unit of its source (a control character
 * becomes `\u00XX`), so only sources near the limit are measured (`jsonByteLength`, exact).
 * @param escapeFree no string of the value needs a JSON escape (see `jsonByteLength`)
 */
function withSizeCheck(entry: Entry, escapeFree = false): Entry {
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

/**
 * A csv-parse error as a FileError naming the line and field (1-based) where it is. The line
 * is csv-parse's, unless a CRLF inside quotes earlier made its count run ahead: then it is
 * the line the failing record starts on, counted here (`consumedLines` by earlier records).
 */
function csvFileError(error: CsvError, header: readonly string[] | undefined, consumedLines: number, crlfInQuotes: boolean): FileError {
  const { lines, column, empty_lines: emptyLines } = error as CsvError & { lines?: number; column?: number | string; empty_lines?: number };
  const line = crlfInQuotes || lines === undefined ? 1 + consumedLines + (emptyLines ?? 0) : lines;
  const field = typeof column === "number" ? `, field ${column + 1}${header?.[column] !== undefined ? ` (${header[column]})` : ""}` : "";
  return new FileError(`not valid CSV at line ${line}${field}: ${error.message} (code ${error.code})`);
}

const BREAK = /\r\n|\r|\n/g;

// Line breaks (CRLF, CR or LF, each one break) inside a record's values: quoted fields only.
function lineBreaksIn(record: readonly string[]): number {
  let count = 0;
  for (const value of record) {
    if (value.includes("\n") || value.includes("\r")) count += value.match(BREAK)?.length ?? 0;
  }
  return count;
}

async function* csvEntries(lines: AsyncIterable<Line[]>): AsyncGenerator<Entry[], void, undefined> {
  let header: string[] | undefined;
  // The first record as csv-parse read it: an error can reach the loop below before the
  // header record does, and its message still names the column.
  let firstRecord: readonly string[] | undefined;
  const invalidLines: Entry[] = [];
  const parser = parseCsv({
    on_record: (item: unknown) => {
      // With raw and info set, csv-parse hands over { record, raw, info } (its types say the record).
      const record = (item as { record?: unknown }).record ?? item;
      if (firstRecord === undefined && Array.isArray(record)) firstRecord = record.map((column) => String(column).trim());
      return item as string[];
    },
    // Records as arrays: the header is checked here and the message built below, never by
    // assigning column names to an object (a `__proto__` column would change its prototype).
    skip_empty_lines: true,
    // Any of the three line endings ends a record, even mixed in one file (csv-parse would
    // otherwise take the first one it meets, and keep a later '\r' as data).
    record_delimiter: ["\r\n", "\n", "\r"],
    // No trim: values are kept as written (see csvMessage); a space before a quoted field is
    // a clear error (INVALID_OPENING_QUOTE), not a silent change.
    info: true,
    raw: true,
    relax_column_count: false,
  });
  // Lines are fed as text with their own line breaks, so csv-parse sees the file's bytes (a
  // quoted "a\r\nb" stays CRLF); a line that is not UTF-8 is fed empty (and reported) so the
  // numbering stays right.
  const feed = (async () => {
    try {
      for await (const batch of lines) {
        if (parser.destroyed) return;
        let text = "";
        for (const line of batch) {
          if (line.text === undefined) {
            invalidLines.push({ location: `line ${line.number}`, source: "", problem: { reason: "not valid UTF-8" } });
            text += line.ending;
          } else text += line.text + line.ending;
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
  // Line numbers are counted here, not taken from csv-parse: it counts a CRLF inside a quoted
  // field as two lines. A record starts after the lines of the records before it (1 plus the
  // line breaks inside its values) and the blank lines skipped so far.
  let consumedLines = 0;
  let crlfInQuotes = false;
  try {
    let entries: Entry[] = [];
    for await (const { record, raw, info } of parser as AsyncIterable<{ record: string[]; raw: string; info: { empty_lines: number } }>) {
      if (invalidLines.length > 0) entries.push(...invalidLines.splice(0));
      const line = 1 + consumedLines + info.empty_lines;
      const breaks = lineBreaksIn(record);
      consumedLines += 1 + breaks;
      if (breaks > 0 && record.some((value) => value.includes("\r\n"))) crlfInQuotes = true;
      if (header === undefined) {
        // Column names are names, not data: spaces around them are dropped.
        header = record.map((column) => column.trim());
        const problem = headerProblem(header);
        if (problem !== undefined) throw new FileError(`line ${line}: ${problem}`);
        continue;
      }
      entries.push(withSizeCheck({ location: `line ${line}`, source: raw, value: csvMessage(header, record) }));
      if (entries.length >= 1000) {
        yield entries;
        entries = [];
      }
    }
    entries.push(...invalidLines.splice(0));
    if (entries.length > 0) yield entries;
  } catch (error) {
    // Every csv-parse error (its codes are CSV_* and others such as INVALID_OPENING_QUOTE).
    if (error instanceof CsvError) throw csvFileError(error, header ?? firstRecord, consumedLines, crlfInQuotes);
    throw error;
  } finally {
    if (!parser.destroyed) parser.destroy();
    await feed;
  }
}

/**
 * A CSV record as a message, every value exactly as written (quoted content byte for byte,
 * unquoted spaces kept), except recipients: `to` is split on `;` and each number trimmed.
 * `body` and `template_id` are left out when empty (a row uses one or the other); a row with
 * a template keeps every `model.<name>` value, empty ones as `""`. Model values in a row
 * without a template make it a template message with an empty id, which the schema refuses
 * by name rather than dropping them.
 */
function csvMessage(header: readonly string[], record: readonly string[]): Record<string, unknown> {
  let to = "";
  let body = "";
  let templateId = "";
  let modelGiven = false;
  const model: Record<string, string> = {};
  header.forEach((column, i) => {
    const value = record[i] ?? "";
    if (column === "to" || column === "tos") to = value;
    else if (column === "body") body = value;
    else if (column === "template_id") templateId = value;
    else {
      model[column.slice(MODEL_PREFIX.length)] = value;
      if (value !== "") modelGiven = true;
    }
  });
  const message: Record<string, unknown> = {
    tos: to
      .split(";")
      .map((item) => item.trim())
      .filter(Boolean),
  };
  if (body !== "") message.body = body;
  if (templateId !== "" || modelGiven) message.template = { id: templateId, model };
  return message;
}
