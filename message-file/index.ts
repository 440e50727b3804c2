/** `messaging send`'s message files: their format, their stream, and their messages read as a stream of entries (NDJSON and JSON here, CSV in `csv.ts`). */
import { createReadStream } from "node:fs";
import * as path from "node:path";
import { jsonHazardField } from "../schemas/json-value";
import { parseStrictJson } from "../schemas/strict-json";
import { csvEntries } from "./csv";
import { jsonArrayItems, JsonStructureError, type DeclaredStream } from "./json-array";
import { FileError, withSizeCheck, type Entry } from "./entries";
import { NotUtf8Error, utf8Lines, type Line } from "./utf8-lines";

export type { DeclaredStream } from "./json-array";
export { FileError, type Entry } from "./entries";

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
 * Reads the messages of a file as a stream, in arrays of entries (one per chunk read), in
 * file order; each array is the caller's once yielded (the reader never touches it again, so
 * the caller may empty it to let its entries go). NDJSON (one message a line, blank lines
 * skipped), JSON (an array of messages, or `{ "messages": [...], "stream"?: "..." }`), CSV
 * (a header row, then `to` — numbers separated by `;` — and `body`, or `template_id` and
 * `model.<name>` columns). UTF-8 only: a UTF-8 byte order mark is ignored, a UTF-16 or UTF-32
 * file is refused by name. Lines end with LF, CRLF or a lone CR. Memory stays flat: nothing
 * but the current chunk and entry is held, and a long line costs time in proportion to its
 * bytes.
 *
 * JSON is read under the package's JSON rule (`schemas/strict-json.ts`, docs/json-rule.md):
 * what it refuses, or invalid UTF-8 (never replaced by U+FFFD), makes the entry carry a
 * `problem` naming the field. CSV values
 * are kept exactly as written (see `csvMessage` in `csv.ts`). A message that could not fit in a call
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

/**
 * True when the first line of an NDJSON file opens a JSON document that goes on over the next
 * lines (a pretty-printed array or object): `[` or `{` alone, or an array that is not JSON on
 * its own. One message a line never starts so, and every line would then be reported.
 */
function opensMultilineDocument(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "[" || trimmed === "{") return true;
  if (!trimmed.startsWith("[")) return false;
  try {
    JSON.parse(trimmed);
    return false;
  } catch {
    return true;
  }
}

async function* ndjsonEntries(lines: AsyncIterable<Line[]>): AsyncGenerator<Entry[], void, undefined> {
  let first = true;
  for await (const batch of lines) {
    const entries: Entry[] = [];
    for (const line of batch) {
      const location = `line ${line.number}`;
      if (first && line.text !== undefined && line.text.trim() !== "") {
        first = false;
        if (opensMultilineDocument(line.text)) {
          throw new FileError(
            `${location} starts a JSON document spread over several lines (a pretty-printed array?), not one message a line ` +
              "as NDJSON needs: rename it to .json or pass --format json",
          );
        }
      }
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
