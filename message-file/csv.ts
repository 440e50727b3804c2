/** CSV message files: the header's columns, each record as a message, csv-parse's errors by line and field. */
import { parse as parseCsv, CsvError } from "csv-parse";
import { canonicalJson } from "../schemas/canonical-json";
import { FileError, withSizeCheck, type Entry } from "./entries";
import type { Line } from "./utf8-lines";

const MODEL_PREFIX = "model.";
const KNOWN_COLUMNS = new Set(["to", "tos", "body", "template_id"]);

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
  if (seen.has("to") && seen.has("tos")) {
    return `columns 'to' (${seen.get("to")! + 1}) and 'tos' (${seen.get("tos")! + 1}) both give the recipients, and only one would be read: keep one`;
  }
  if (!seen.has("to") && !seen.has("tos")) return `no 'to' column (recipients separated by ';'); the header has: ${columns.join(", ")}`;
  return undefined;
}

function columnNames(header: readonly string[]): (field: string) => string {
  const to = header.includes("tos") ? "tos" : "to";
  const column = (field: string): string | undefined => {
    const recipient = /^tos\[(\d+)\]$/.exec(field);
    if (recipient) return `column '${to}', recipient ${Number(recipient[1]) + 1}`;
    if (field === "tos") return `column '${to}'`;
    if (field === "body") return "column 'body'";
    if (field === "template.id") return "column 'template_id'";
    const model = /^template\.model\.(.+)$/.exec(field);
    if (model) return `column '${MODEL_PREFIX}${model[1]}'`;
    if (field === "template" || field === "template.model") return `columns template_id and ${MODEL_PREFIX}<name>`;
    return undefined;
  };
  return (field) => {
    const where = column(field);
    return where === undefined ? field : `${field} (${where})`;
  };
}

// csv-parse's line, unless a CRLF inside quotes made its count run ahead: then ours.
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

export async function* csvEntries(lines: AsyncIterable<Line[]>): AsyncGenerator<Entry[], void, undefined> {
  let header: string[] | undefined;
  let nameOf: ((field: string) => string) | undefined;
  // The first record as csv-parse read it: an error can reach the loop below before the
  // header record does, and its message still names the column.
  let firstRecord: readonly string[] | undefined;
  const invalidLines: Entry[] = [];
  const parser = parseCsv({
    on_record: (item: unknown) => {
      // With info set, csv-parse hands over { record, info } (its types say the record).
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
  // Line numbers are counted here: csv-parse counts a CRLF inside a quoted field as two lines.
  let consumedLines = 0;
  let crlfInQuotes = false;
  try {
    let entries: Entry[] = [];
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { empty_lines: number } }>) {
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
        nameOf = columnNames(header);
        continue;
      }
      // The source a call's key is made of: the message as sent, not the record, which means
      // nothing without the header (two files' equal records under other headers are other
      // messages, and a fixed header makes another message of the same record).
      const message = csvMessage(header, record);
      entries.push(withSizeCheck({ location: `line ${line}`, source: canonicalJson(message), value: message, nameOf }));
      if (entries.length >= 1000) {
        yield entries;
        entries = [];
      }
    }
    entries.push(...invalidLines.splice(0));
    if (entries.length > 0) yield entries;
  } catch (error) {
    if (error instanceof CsvError) throw csvFileError(error, header ?? firstRecord, consumedLines, crlfInQuotes);
    throw error;
  } finally {
    if (!parser.destroyed) parser.destroy();
    await feed;
  }
}

/**
 * Every value exactly as written, except recipients, each trimmed. Model values in a row
 * without a template make a template message with an empty id, which the schema refuses by
 * name rather than dropping them.
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
