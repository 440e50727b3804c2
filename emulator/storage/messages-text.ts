/**
 * The text the emulator stores for a batch's messages is `JSON.stringify` of them. A client
 * that wrote the body with `JSON.stringify` (most do) already sent that very text: this finds
 * it in the body and copies it out, instead of building it again from the parsed messages.
 */
import { StoredText } from "./stored-text";

/**
 * The `messages` array of a batch body exactly as `JSON.stringify(messages)` writes it, copied
 * from the body's bytes, or undefined when the body does not hold that text verbatim (the caller then
 * stringifies). `text` must be `bytes` decoded, read by `parseStrictJson` (so no key repeats
 * and every number reads back exactly), with `messages` at its top level.
 *
 * Verbatim means, within the array: no whitespace between tokens; strings with no escape but
 * the seven `JSON.stringify` writes for `"`, `\`, backspace, form feed, newline, return and
 * tab; every number spelled as `String(number)` spells it; no key starting with a digit
 * (JavaScript objects put integer-like keys first, so `JSON.stringify` would move them).
 * Only ASCII bodies are read (one byte per character, so the copy is taken from the bytes):
 * an ASCII text has no lone surrogate, which `JSON.stringify` would escape.
 * `test/emulator/storage/messages-text.test.ts` holds the result to `JSON.stringify`.
 */
export function verbatimMessagesText(text: string, bytes: Buffer): StoredText | undefined {
  const found = findVerbatimMessages(text, bytes);
  return found === undefined ? undefined : StoredText.ofAscii(bytes, found.start, found.end);
}

/** Where {@link findVerbatimMessages} found the `messages` array, and the object members written in it. */
export interface VerbatimMessages {
  /** Index of its `[`. */
  readonly start: number;
  /** Index just past its `]`. */
  readonly end: number;
  /** The colons outside strings in `[start, end)`: one per object member written there. */
  readonly members: number;
}

/**
 * {@link verbatimMessagesText}'s search without the copy: where the verbatim `messages` array
 * is, and how many object members it writes (so a caller proving the body free of repeated
 * keys does not scan it a second time). Unlike `verbatimMessagesText`, `text` need not have
 * been read by `parseStrictJson` yet, only by `JSON.parse`.
 */
export function findVerbatimMessages(text: string, bytes: Buffer): VerbatimMessages | undefined {
  if (bytes.length !== text.length) return undefined;
  const start = topLevelValue(text, "messages");
  if (start === undefined || text.charCodeAt(start) !== 0x5b /* [ */) return undefined;
  return canonicalValue(text, start);
}

// Where the value of the top-level member `name` (written without escapes) starts, or undefined.
function topLevelValue(text: string, name: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const close = stringClose(text, i);
      if (close === undefined) return undefined;
      if (depth === 1 && close - i - 1 === name.length && text.startsWith(name, i + 1)) {
        let j = close + 1;
        while (isSpace(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) === 0x3a /* : */) {
          j++;
          while (isSpace(text.charCodeAt(j))) j++;
          return j;
        }
      }
      i = close;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) depth++;
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return undefined;
}

// The container opening at `start` when it is written as JSON.stringify writes it (see
// verbatimMessagesText), with its end (exclusive) and the colons outside its strings; else
// undefined.
function canonicalValue(text: string, start: number): VerbatimMessages | undefined {
  let depth = 0;
  let members = 0;
  let i = start;
  // The next backslash, looked for once across the whole array rather than once per string.
  let backslash = text.indexOf("\\", start);
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let close = text.indexOf('"', i + 1);
      // Each backslash before the quote starts an escape (the escaped character is skipped):
      // one of JSON.stringify's, and when it escapes the quote itself, the string goes on.
      while (backslash !== -1 && backslash < close) {
        if (!isShortEscape(text.charCodeAt(backslash + 1))) return undefined;
        if (backslash + 1 === close) close = text.indexOf('"', close + 1);
        backslash = text.indexOf("\\", backslash + 2);
      }
      if (close === -1) return undefined;
      // A key that JavaScript would order before the others.
      if (text.charCodeAt(close + 1) === 0x3a /* : */ && isDigit(text.charCodeAt(i + 1))) return undefined;
      i = close + 1;
    } else if (c === 0x3a /* : */) {
      members++;
      i++;
    } else if (c === 0x2d /* - */ || isDigit(c)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      const token = text.slice(i, j);
      if (String(Number(token)) !== token) return undefined;
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      i++;
      if (depth === 0) return { start, end: i, members };
    } else if (isSpace(c)) {
      return undefined;
    } else {
      // , and the letters of true, false and null.
      i++;
    }
  }
  return undefined;
}

// The index of the quote closing the string that opens at `open`, or undefined.
function stringClose(text: string, open: number): number | undefined {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return undefined;
    let backslashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

// The characters after a backslash in the escapes JSON.stringify writes, \u aside: " \ b f n r t.
function isShortEscape(c: number): boolean {
  return c === 0x22 || c === 0x5c || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isNumberChar(c: number): boolean {
  // digits . + - e E
  return isDigit(c) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45;
}
