/** `messaging send`'s message files: their format, their stream, and their messages read as a stream of entries (NDJSON and JSON here, CSV in `csv.ts`). */
import { createReadStream } from "node:fs";
import * as path from "node:path";
import { jsonHazardField } from "../schemas/json-value";
import { parseStrictJson } from "../schemas/strict-json";
import { csvEntries } from "./csv";
import { jsonArrayItems, JsonStructureError, type DeclaredStream } from "./json-array";
import { FileError, withSizeCheck, type Entry } from "./entries";
import { LineTooLongError, NotUtf8Error, utf8Lines, type Line } from "./utf8-lines";

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
 * The messages of a file, in arrays of entries (one per chunk read). Each array is the
 * caller's once yielded: the caller may empty it to let its entries go, so memory stays flat.
 * A message that breaks the JSON rule, is not UTF-8 (never replaced by U+FFFD) or cannot fit
 * in a call of its own carries a `problem`; the message schema judges the rest.
 * @param onBytes every chunk of the file's bytes, in order (e.g. to hash the file)
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
    if (error instanceof NotUtf8Error || error instanceof LineTooLongError) throw new FileError(error.message);
    throw error;
  }
}

/** A JSON file's top-level `stream` is read first, in a pass that does not parse its messages. */
export async function streamForFile(file: string, format: FileFormat, given: string | undefined): Promise<string> {
  if (format !== "json") return chooseStream(given, undefined);
  let declared: DeclaredStream | undefined;
  try {
    for await (const items of jsonArrayItems(utf8Lines(fileChunks(file, undefined)), (found) => (declared = found))) void items;
  } catch (error) {
    if (error instanceof NotUtf8Error || error instanceof LineTooLongError) throw new FileError(error.message);
    // The structure's own errors are reported, with every message's, by the reading pass.
    if (!(error instanceof JsonStructureError)) throw error;
  }
  return chooseStream(given, declared);
}

/** @throws FileError when `--stream` and the file's differ: the file's would otherwise be ignored */
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

/** A pretty-printed document read as NDJSON: said once, rather than every line reported. */
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
