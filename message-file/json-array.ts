import { parseStrictJson } from "../schemas/strict-json";
import type { Line } from "./utf8-lines";

/** One element of the messages array, as written in the file. */
export interface JsonItem {
  readonly index: number;
  /** Where the element starts. */
  readonly line: number;
  readonly text: string;
}

/** A JSON file's top-level `"stream"`. */
export interface DeclaredStream {
  readonly stream: string;
  readonly line: number;
}

/** The file is not a JSON array of messages (or `{ "messages": [...] }`); `line` is where it went wrong. */
export class JsonStructureError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Streams the elements of the messages array without holding the document, each element's
 * text cut out to be parsed on its own, so every bad element is reported. An error in the
 * structure around them throws {@link JsonStructureError}: a file is read as strictly around
 * the messages as within them.
 */
export async function* jsonArrayItems(
  lines: AsyncIterable<Line[]>,
  onStream?: (declared: DeclaredStream) => void,
): AsyncGenerator<JsonItem[], void, undefined> {
  const scanner = new Scanner(onStream);
  let last = 0;
  for await (const batch of lines) {
    const items: JsonItem[] = [];
    for (const line of batch) {
      last = line.number;
      if (line.text === undefined) throw new JsonStructureError(line.number, "not valid UTF-8");
      scanner.feed(line.text, line.number, items);
    }
    if (items.length > 0) yield items;
  }
  scanner.finish(last);
}

type Mode =
  | "start" // before the top-level value
  | "object" // in the top-level object, at a key, a ':', a ',' or its end
  | "value" // in the top-level object, skipping the value of a key other than "messages" or "stream"
  | "between" // in the messages array, between elements
  | "element" // in an element
  | "end"; // after the document: whitespace only

// Scans the document one character at a time. Strings are skipped with their escapes, so
// brackets inside them do not count.
class Scanner {
  private mode: Mode = "start";
  private topLevelObject = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private key = "";
  private readingKey = false;
  private afterColon = false;
  private messagesFound = false;
  private element = "";
  private elementLine = 0;
  private index = 0;
  private afterComma = false;
  private readonly topLevelKeys = new Set<string>();
  private pendingStream = false;
  private readingStream = false;
  private streamText = "";
  // In the top-level object: what may come next at depth 0.
  private expect: "keyOrEnd" | "key" | "colon" | "value" | "commaOrEnd" = "keyOrEnd";
  // The text of a skipped value (of a key other than "messages" or "stream"), checked once it ends.
  private valueText = "";
  private valueKey = "";
  private currentKey = "";
  private valueLine = 0;

  constructor(private readonly onStream: ((declared: DeclaredStream) => void) | undefined) {}

  feed(text: string, line: number, out: JsonItem[]): void {
    const source = `${text}\n`;
    let elementStart = this.mode === "element" ? 0 : -1;
    for (let i = 0; i < source.length; i++) {
      const c = source[i];
      if (this.inString) {
        if (this.readingKey) this.key += c;
        if (this.readingStream) this.streamText += c;
        if (this.mode === "value") this.valueText += c;
        if (this.escaped) this.escaped = false;
        else if (c === "\\") this.escaped = true;
        else if (c === '"') {
          this.inString = false;
          if (this.readingKey) this.expect = "colon";
          this.readingKey = false;
          if (this.readingStream) this.finishStream(line);
        }
        continue;
      }
      if (this.mode === "element") {
        if (c === '"') this.inString = true;
        else if (c === "{" || c === "[") this.depth++;
        else if ((c === "}" || c === "]") && this.depth > 0) this.depth--;
        else if ((c === "," || c === "]") && this.depth === 0) {
          this.element += source.slice(elementStart, i);
          elementStart = -1;
          out.push({ index: this.index++, line: this.elementLine, text: this.element });
          this.element = "";
          this.mode = "between";
          this.afterComma = c === ",";
          if (c === "]") this.closeArray();
        } else if (c === "}" && this.depth === 0) throw new JsonStructureError(line, "unexpected '}' in the messages array");
        continue;
      }
      if (this.mode === "value" && !(this.depth === 0 && (c === "," || c === "}"))) this.valueText += c;
      if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
      switch (this.mode) {
        case "start":
          if (c === "[") this.mode = "between";
          else if (c === "{") {
            this.topLevelObject = true;
            this.mode = "object";
          } else throw new JsonStructureError(line, 'expected an array of messages or { "messages": [...] }');
          break;
        case "between":
          if (c === "]") {
            if (this.afterComma) throw new JsonStructureError(line, "unexpected ']' after ','");
            this.closeArray();
          } else if (c === ",") throw new JsonStructureError(line, "unexpected ',' in the messages array");
          else {
            this.mode = "element";
            this.afterComma = false;
            this.element = "";
            this.elementLine = line;
            this.depth = 0;
            elementStart = i;
            i--; // scanned again in element mode
          }
          break;
        case "object":
          this.scanObject(c, line);
          break;
        case "value":
          if (c === '"') this.inString = true;
          else if (c === "{" || c === "[") this.depth++;
          else if ((c === "}" || c === "]") && this.depth > 0) this.depth--;
          else if (this.depth === 0 && (c === "," || c === "}")) {
            this.finishValue();
            this.mode = "object";
            i--; // the ',' or '}' belongs to the object
          }
          break;
        case "end":
          throw new JsonStructureError(line, "unexpected text after the JSON document");
      }
    }
    if (this.mode === "element" && elementStart !== -1) this.element += source.slice(elementStart);
  }

  finish(line: number): void {
    if (this.mode === "end") return;
    if (this.mode === "start") throw new JsonStructureError(line, "the file holds no JSON");
    if (this.topLevelObject && !this.messagesFound) throw new JsonStructureError(line, 'no "messages" array in the top-level object');
    throw new JsonStructureError(line, "the JSON document ends too early");
  }

  private closeArray(): void {
    this.mode = this.topLevelObject ? "object" : "end";
    this.expect = "commaOrEnd";
    this.depth = 0;
  }

  // A skipped value has ended: it must be JSON under the package's rule all the same.
  private finishValue(): void {
    const parsed = parseStrictJson(this.valueText, { limit: 1 });
    this.expect = "commaOrEnd";
    if (parsed.ok) return;
    const why = parsed.syntax ?? parsed.problems.map((p) => p.message).join("; ");
    throw new JsonStructureError(this.valueLine, `the value of ${JSON.stringify(this.valueKey)} is not valid JSON: ${why}`);
  }

  // At depth 0 of the top-level object: `"key"`, `:`, a value, `,` or `}`.
  private scanObject(c: string, line: number): void {
    if (c === '"' && (this.expect === "keyOrEnd" || this.expect === "key")) {
      this.inString = true;
      this.readingKey = true;
      this.key = c;
    } else if (this.expect === "commaOrEnd" && c !== "," && c !== "}") {
      throw new JsonStructureError(line, `expected ',' or '}' between the members of the top-level object, found '${c}'`);
    } else if (this.expect === "colon" && c !== ":") {
      throw new JsonStructureError(line, `expected ':' after a key of the top-level object, found '${c}'`);
    } else if (c === ":" && this.expect === "colon") {
      let name: unknown;
      try {
        name = JSON.parse(this.key);
      } catch {
        throw new JsonStructureError(line, "a key of the top-level object is not a JSON string");
      }
      this.key = "";
      this.afterColon = true;
      this.expect = "value";
      const key = String(name);
      this.currentKey = key;
      if (this.topLevelKeys.has(key))
        throw new JsonStructureError(line, `the key ${JSON.stringify(key)} appears twice in the top-level object`);
      this.topLevelKeys.add(key);
      if (name === "messages") this.messagesFound = true;
      this.pendingMessages = name === "messages";
      this.pendingStream = name === "stream";
    } else if (this.afterColon) {
      this.afterColon = false;
      if (this.pendingStream) {
        if (c !== '"') throw new JsonStructureError(line, 'expected a string under "stream"');
        this.inString = true;
        this.readingStream = true;
        this.streamText = c;
      } else if (this.pendingMessages) {
        if (c !== "[") throw new JsonStructureError(line, 'expected an array under "messages"');
        this.mode = "between";
        this.afterComma = false;
      } else {
        this.mode = "value";
        this.depth = 0;
        this.valueText = c;
        this.valueKey = this.currentKey;
        this.valueLine = line;
        if (c === '"') this.inString = true;
        else if (c === "{" || c === "[") this.depth++;
      }
    } else if (c === ",") {
      if (this.expect !== "commaOrEnd") throw new JsonStructureError(line, "unexpected ',' in the top-level object");
      this.expect = "key";
    } else if (c === "}") {
      if (this.expect === "key") throw new JsonStructureError(line, "unexpected '}' after ',' in the top-level object");
      if (this.expect !== "keyOrEnd" && this.expect !== "commaOrEnd")
        throw new JsonStructureError(line, "unexpected '}' in the top-level object");
      if (!this.messagesFound) throw new JsonStructureError(line, 'no "messages" array in the top-level object');
      this.mode = "end";
    } else {
      throw new JsonStructureError(line, `unexpected '${c}' in the top-level object`);
    }
  }

  private pendingMessages = false;

  // The top-level "stream" string has been read: check it and hand it over.
  private finishStream(line: number): void {
    this.readingStream = false;
    this.expect = "commaOrEnd";
    let stream: unknown;
    try {
      stream = JSON.parse(this.streamText);
    } catch {
      throw new JsonStructureError(line, 'the "stream" is not a valid JSON string');
    }
    if (stream === "") throw new JsonStructureError(line, 'the "stream" must not be empty');
    this.onStream?.({ stream: stream as string, line });
  }
}
