import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { ValidationError } from "../errors";
import { Message, toFieldErrors } from "../schemas";

/** A message read from a file, with where it came from (for error messages). */
export interface SourcedMessage {
  message: Message;
  /** `line 12` (NDJSON, CSV) or `item 3` (JSON). */
  location: string;
}

/**
 * Reads messages from NDJSON (`.ndjson`, `.jsonl`: one message object a line), JSON (an
 * array of messages, or `{ "messages": [...] }`) or CSV (`.csv`: columns `to` — numbers
 * separated by `;` —, `body`, or `template_id` with `model.<name>` columns).
 * Every message is validated; all problems are reported at once, each naming its line or
 * item and field, and nothing is returned when there is any.
 */
export function readMessages(file: string): Message[] {
  const text = fs.readFileSync(file, "utf8");
  const extension = path.extname(file).toLowerCase();
  const raw = extension === ".csv" ? fromCsv(text) : extension === ".json" ? fromJson(text) : fromNdjson(text);
  const errors: Record<string, string[]> = {};
  const messages: Message[] = [];
  for (const { value, location } of raw) {
    const parsed = Message.safeParse(value);
    if (parsed.success) messages.push(parsed.data);
    else for (const [field, reasons] of Object.entries(toFieldErrors(parsed.error.issues))) {
      errors[`${location}: ${field}`] = reasons;
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(`messages in ${file}`, errors);
  if (messages.length === 0) throw new ValidationError(`messages in ${file}`, { "(file)": ["no messages found"] });
  return messages;
}

interface RawMessage {
  value: unknown;
  location: string;
}

function fromNdjson(text: string): RawMessage[] {
  const out: RawMessage[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const location = `line ${index + 1}`;
    try {
      out.push({ value: JSON.parse(line), location });
    } catch (error) {
      throw new ValidationError("NDJSON", { [location]: [`not valid JSON: ${(error as Error).message}`] });
    }
  });
  return out;
}

function fromJson(text: string): RawMessage[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ValidationError("JSON", { "(file)": [`not valid JSON: ${(error as Error).message}`] });
  }
  const list = Array.isArray(document) ? document : (document as { messages?: unknown })?.messages;
  if (!Array.isArray(list)) throw new ValidationError("JSON", { "(file)": ["expected an array of messages or { \"messages\": [...] }"] });
  return list.map((value, index) => ({ value, location: `item ${index}` }));
}

function fromCsv(text: string): RawMessage[] {
  const records = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, info: true }) as Array<{
    record: Record<string, string>;
    info: { lines: number };
  }>;
  return records.map(({ record, info }) => {
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
    return { value: message, location: `line ${info.lines}` };
  });
}
