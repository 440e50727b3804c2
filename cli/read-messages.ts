import * as fs from "node:fs";
import * as path from "node:path";
import { CsvError, parse as parseCsv } from "csv-parse/sync";
import { validateMessageList } from "../client/validate";
import { ValidationError } from "../errors";
import type { Message } from "../schemas";

/**
 * Reads messages from NDJSON (`.ndjson`, `.jsonl` and any other extension: one message
 * object a line, blank lines skipped), JSON (`.json`: an array of messages, or
 * `{ "messages": [...] }`) or CSV (`.csv`: a header row, then columns `to` — numbers
 * separated by `;` —, `body`, or `template_id` with `model.<name>` columns; quoted fields
 * may hold commas and line breaks, which are read as `\n`). A UTF-8 byte order mark is
 * ignored.
 *
 * Every message is validated with the shared `Message` schema and all problems are
 * reported at once in a {@link ValidationError}: its `fieldErrors` keys name the place —
 * `line 3: tos[0]` (NDJSON, CSV; lines from 1, a CSV record by the line it starts on),
 * `item 2: body` (JSON; items from 0, as array indexes) — or `(file)` for the file as a
 * whole (unreadable, empty, not JSON, no messages). Nothing is returned when there is any
 * problem. As in the client, at most `MAX_REPORTED_INVALID_MESSAGES` (100) bad lines or
 * items are listed; the rest are counted under `(file)`.
 */
export function readMessages(file: string): Message[] {
  const text = readText(file);
  if (text.trim() === "") throw fileError(file, "the file is empty; expected messages as NDJSON, JSON or CSV");
  const extension = path.extname(file).toLowerCase();
  const entries = extension === ".csv" ? fromCsv(file, text) : extension === ".json" ? fromJson(file, text) : fromNdjson(text);

  const messages = validateMessageList(entries.map((entry) => entry.value), {
    what: `messages in ${file}`,
    locate: (i) => entries[i].location,
    unreadable: (i) => entries[i].syntaxError,
    overflowKey: "(file)",
  });
  if (messages.length === 0) throw fileError(file, "no messages found");
  return messages;
}

/** A message as read (or why it could not be read), with where it is in the file. */
interface Entry {
  /** `line N` or `item N`. */
  readonly location: string;
  /** The value read; undefined when `syntaxError` is set. */
  readonly value?: unknown;
  /** Why the line could not be read at all. */
  readonly syntaxError?: string;
}

function fileError(file: string, reason: string): ValidationError {
  return new ValidationError(`messages in ${file}`, { "(file)": [reason] });
}

function readText(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw fileError(file, `cannot be read: ${(error as Error).message}`);
  }
  // Editors on Windows (and Excel's "CSV UTF-8") start files with a byte order mark.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function fromNdjson(text: string): Entry[] {
  const entries: Entry[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const location = `line ${index + 1}`;
    try {
      entries.push({ location, value: JSON.parse(line) });
    } catch (error) {
      // Keep going: every bad line is reported in one go, not one per run.
      entries.push({ location, syntaxError: `not valid JSON: ${(error as Error).message}` });
    }
  });
  return entries;
}

function fromJson(file: string, text: string): Entry[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw fileError(file, `not valid JSON${lineOfPosition(text, (error as Error).message)}: ${(error as Error).message}`);
  }
  const list = Array.isArray(document) ? document : (document as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(list)) throw fileError(file, 'expected an array of messages or { "messages": [...] }');
  return list.map((value, index) => ({ location: `item ${index}`, value }));
}

// V8 names a byte offset ("… in JSON at position 1234") for some errors; a line is what helps.
function lineOfPosition(text: string, message: string): string {
  const match = / at position (\d+)/.exec(message);
  if (!match) return "";
  const before = text.slice(0, Number(match[1]));
  return ` (line ${before.split("\n").length})`;
}

function fromCsv(file: string, text: string): Entry[] {
  // csv-parse counts a CRLF inside a quoted field as two lines; with LF only, line numbers are right.
  const normalized = text.replace(/\r\n/g, "\n");
  let records: Array<{ record: Record<string, string>; raw: string; info: { lines: number; columns: unknown } }>;
  try {
    records = parseCsv(normalized, { columns: true, skip_empty_lines: true, trim: true, info: true, raw: true });
  } catch (error) {
    if (error instanceof CsvError) throw fileError(file, `not valid CSV: ${error.message}`);
    throw error;
  }
  if (records.length === 0) throw fileError(file, "no messages found (a header row, then one row per message)");
  const columns = Object.keys(records[0].record);
  if (!columns.includes("to") && !columns.includes("tos")) {
    // One clear error instead of "no recipient" on every row.
    throw fileError(file, `no 'to' column (recipients separated by ';'); the header has: ${columns.join(", ")}`);
  }
  return records.map(({ record, raw, info }) => {
    const message: Record<string, unknown> = {
      tos: (record.to ?? record.tos ?? "").split(";").map((to) => to.trim()).filter(Boolean),
    };
    if (record.body) message.body = record.body;
    if (record.template_id) {
      const model = Object.fromEntries(
        Object.entries(record).filter(([column]) => column.startsWith("model.")).map(([column, value]) => [column.slice(6), value]),
      );
      message.template = { id: record.template_id, model };
    }
    return { location: `line ${startLine(raw, info.lines)}`, value: message };
  });
}

// `info.lines` is the line a record ends on; a quoted field can span lines, and users look
// for the line it starts on. `raw` may begin with the blank lines skipped before it.
function startLine(raw: string, endLine: number): number {
  const record = raw.replace(/^(?:[ \t]*\n)+/, "").replace(/\n$/, "");
  return endLine - (record.split("\n").length - 1);
}
