// A client that wrote the body with `JSON.stringify` (most do) already sent the text stored
// for its messages: it is copied out of the body rather than built again.
import { StoredText } from "./stored-text";

/**
 * The `messages` array as `JSON.stringify(messages)` writes it, or undefined when the body does
 * not hold that text verbatim. `text` must have been read by `parseStrictJson` (no key repeats,
 * every number reads back exactly). No key may start with a digit: JavaScript puts integer-like
 * keys first, so `JSON.stringify` would move them. Only ASCII bodies are read: they have no
 * lone surrogate, which `JSON.stringify` would escape.
 */
export function verbatimMessagesText(text: string, bytes: Buffer): StoredText | undefined {
  const found = findVerbatimMessages(text, bytes);
  return found === undefined ? undefined : StoredText.ofAscii(bytes, found.start, found.end);
}

export interface VerbatimMessages {
  readonly start: number;
  readonly end: number;
  /** The colons outside strings: one per object member. */
  readonly members: number;
}

/**
 * {@link verbatimMessagesText}'s search without the copy; `members` spares a caller proving the
 * body free of repeated keys a second scan. `text` need only have been read by `JSON.parse`.
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

// The container opening at `start` when written as JSON.stringify writes it; else undefined.
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
      // An escaped quote does not close the string.
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
