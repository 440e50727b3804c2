import { isExactJsonNumber } from "./json-number";
import { MAX_JSON_DEPTH, findJsonHazards, type JsonHazard } from "./json-value";
import { parseJsonSlices } from "./json-slices";

/**
 * The package's one JSON reading rule, for every input path: what is read is exactly what was written, or it is refused with
 * the path and the reason. On top of `JSON.parse` it refuses a repeated key (JSON.parse keeps the last silently), a number that
 * does not read back exactly (`1e-400`, `0.10000000000000001`), and what {@link findJsonHazards} refuses. Numbers are refused
 * rather than carried as text because every reader on the way holds them as doubles.
 */

export type StrictJsonResult =
  | { readonly ok: true; readonly value: unknown }
  /** `syntax`: JSON.parse's message, when the text is not JSON at all; else `problems` (at least one). */
  | { readonly ok: false; readonly syntax?: string; readonly problems: readonly JsonHazard[] };

export interface StrictJsonOptions {
  /** Stop after this many problems. Default 20. */
  readonly limit?: number;
  /** A caller's own walk that stands in for {@link certainlyClean}: true only when it would be; false leaves the usual checks. */
  readonly provenClean?: (text: string, value: unknown) => boolean;
}

// A text holding a string this long goes to parseJsonSlices (see json-slices.ts); JSON.parse is faster at many short strings.
const LONG_STRING = 128 * 1024;

function holdsLongString(text: string): boolean {
  if (text.length < LONG_STRING) return false;
  for (let start = text.indexOf('"'); start !== -1;) {
    const end = stringEnd(text, start);
    if (end === -1) return false;
    if (end - start > LONG_STRING) return true;
    start = text.indexOf('"', end + 1);
  }
  return false;
}

/** Parses JSON text under the reading rule above. Never throws. */
export function parseStrictJson(text: string, options: StrictJsonOptions = {}): StrictJsonResult {
  const limit = options.limit ?? 20;
  let value: unknown;
  try {
    const sliced = holdsLongString(text) ? parseJsonSlices(text) : undefined;
    value = sliced === undefined ? JSON.parse(text) : sliced.value;
  } catch (error) {
    return { ok: false, syntax: error instanceof Error ? error.message : String(error), problems: [] };
  }
  if (options.provenClean?.(text, value) === true || certainlyClean(text, value)) return { ok: true, value };
  const problems = findTextHazards(text, limit);
  if (problems.length < limit) {
    const seen = new Set(problems.map((p) => pathKey(p.path)));
    for (const hazard of findJsonHazards(value, { limit: limit - problems.length })) {
      if (!seen.has(pathKey(hazard.path))) problems.push(hazard);
    }
  }
  return problems.length === 0 ? { ok: true, value } : { ok: false, problems };
}

/**
 * True only when neither {@link findTextHazards} nor {@link findJsonHazards} would find anything, answered without building a path.
 * Duplicate keys by counting: the text's colons outside strings equal the value's own keys only when no object repeats a name.
 * @internal exported for test/schemas/strict-json.test.ts, which holds it to the two
 */
export function certainlyClean(text: string, value: unknown): boolean {
  const members = textMembers(text);
  return members !== -1 && valueMembers(value, 1) === members;
}

/**
 * The members of the objects in `text` (or a run of its tokens), or -1 when a number might not read back exactly.
 * @internal exported for a caller's `provenClean`
 */
export function textMembers(text: string): number {
  let members = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (end === -1) return -1;
      i = end + 1;
    } else if (c === 0x3a /* : */) {
      members++;
      i++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      if ((j - i > 15 || hasExponent(text, i, j)) && numberProblem(text.slice(i, j)) !== undefined) return -1;
      i = j;
    } else {
      i++;
    }
  }
  return members;
}

// The own keys of every object in `value`, or -1 where findJsonHazards might find something (bounding the recursion too).
function valueMembers(value: unknown, depth: number): number {
  switch (typeof value) {
    case "string":
    case "boolean":
      return 0;
    case "number":
      return isExactJsonNumber(value) ? 0 : -1;
    case "object":
      break;
    default:
      return -1;
  }
  if (value === null) return 0;
  if (depth > MAX_JSON_DEPTH) return -1;
  let members = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return -1;
      const inner = valueMembers(value[i], depth + 1);
      if (inner === -1) return -1;
      members += inner;
    }
    return members;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return -1;
  for (const key in value) {
    if (key === "__proto__" || !Object.hasOwn(value, key)) return -1;
    const inner = valueMembers((value as Record<string, unknown>)[key], depth + 1);
    if (inner === -1) return -1;
    members += 1 + inner;
  }
  return members;
}

function pathKey(path: readonly PropertyKey[]): string {
  return JSON.stringify(path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)));
}

// Below this many keys an object's names are checked in an array; above, in a Set.
const SMALL_OBJECT = 16;

interface Frame {
  array: boolean;
  /** Array: the current element's index. Object: unused. */
  index: number;
  /** Object: the current member's key. */
  key: string | undefined;
  /** Object: the next string is a key. */
  expectKey: boolean;
  /** Object: the keys seen so far. */
  keys: string[] | Set<string> | undefined;
}

/** Duplicate keys and numbers that do not read back exactly, in text `JSON.parse` accepted. A path is built only for a problem. */
export function findTextHazards(text: string, limit = 20): JsonHazard[] {
  const problems: JsonHazard[] = [];
  // Frames are reused per depth, so a large batch allocates a handful.
  const stack: Frame[] = [];
  let depth = 0;
  const push = (array: boolean): void => {
    let frame = stack[depth];
    if (frame === undefined) {
      frame = { array, index: 0, key: undefined, expectKey: !array, keys: undefined };
      stack[depth] = frame;
    } else {
      frame.array = array;
      frame.index = 0;
      frame.key = undefined;
      frame.expectKey = !array;
      if (Array.isArray(frame.keys)) frame.keys.length = 0;
      else frame.keys = undefined;
    }
    depth++;
  };
  const pathOf = (): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let d = 0; d < depth; d++) path.push(stack[d].array ? stack[d].index : (stack[d].key as string));
    return path;
  };
  const n = text.length;
  let i = 0;
  while (i < n && problems.length < limit) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      // Text JSON.parse accepted closes every string; this guards the loop all the same.
      if (end === -1) break;
      const top = depth > 0 ? stack[depth - 1] : undefined;
      if (top !== undefined && !top.array && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        top.expectKey = false;
        top.key = key;
        if (hasKey(top, key)) problems.push({ path: pathOf(), message: "this key appears more than once in the object" });
        else addKey(top, key);
      }
      i = end + 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      // Short plain numbers (the common case) read back exactly: no token is cut out for them.
      if (j - i > 15 || hasExponent(text, i, j)) {
        const reason = numberProblem(text.slice(i, j));
        if (reason !== undefined) problems.push({ path: pathOf(), message: reason });
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      push(false);
      i++;
    } else if (c === 0x5b /* [ */) {
      push(true);
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      i++;
    } else if (c === 0x2c /* , */) {
      const top = stack[depth - 1];
      if (top.array) top.index++;
      else top.expectKey = true;
      i++;
    } else {
      // Whitespace, ':' and the letters of true, false and null.
      i++;
    }
  }
  return problems;
}

function hasExponent(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x65 || c === 0x45) return true;
  }
  return false;
}

// Index of the quote that closes the string opening at `start`: the next quote not
// preceded by an odd number of backslashes; -1 when there is none.
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let backslashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

function isNumberChar(c: number): boolean {
  // digits . + - e E
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45;
}

function hasKey(frame: Frame, key: string): boolean {
  return frame.keys === undefined ? false : Array.isArray(frame.keys) ? frame.keys.includes(key) : frame.keys.has(key);
}

function addKey(frame: Frame, key: string): void {
  if (frame.keys === undefined) frame.keys = [key];
  else if (Array.isArray(frame.keys)) {
    frame.keys.push(key);
    if (frame.keys.length > SMALL_OBJECT) frame.keys = new Set(frame.keys);
  } else frame.keys.add(key);
}

/** Why `token` does not read back exactly, or undefined; non-finite, `-0` and unsafe integers are left to {@link findJsonHazards}. */
export function numberProblem(token: string): string | undefined {
  // Up to 15 significant digits without an exponent always read back exactly.
  if (token.length <= 15 && !/[eE]/.test(token)) return undefined;
  const value = Number(token);
  if (!Number.isFinite(value)) return undefined;
  if (canonicalDecimal(token) === canonicalDecimal(String(value))) return undefined;
  if (value === 0) return `${token} is too small for a double-precision number: it would be read as 0`;
  return `${token} has more precision than a double-precision number carries: it would be read as ${String(value)}; send it as a string`;
}

// A decimal number as `[-]digits e exponent`, digits without leading or trailing zeros;
// zero (of either sign) as "0". Two spellings of one value give the same string.
function canonicalDecimal(token: string): string {
  const negative = token.startsWith("-");
  const body = negative || token.startsWith("+") ? token.slice(1) : token;
  const e = body.search(/[eE]/);
  const mantissa = e === -1 ? body : body.slice(0, e);
  const point = mantissa.indexOf(".");
  const fraction = point === -1 ? "" : mantissa.slice(point + 1);
  let digits = point === -1 ? mantissa : mantissa.slice(0, point) + fraction;
  // A string exponent keeps the sum exact for exponents no double could hold.
  let exponent = BigInt(e === -1 ? 0 : body.slice(e + 1)) - BigInt(fraction.length);
  const lead = digits.search(/[1-9]/);
  if (lead === -1) return "0";
  digits = digits.slice(lead);
  const trimmed = digits.replace(/0+$/, "");
  exponent += BigInt(digits.length - trimmed.length);
  return `${negative ? "-" : ""}${trimmed}e${exponent}`;
}
