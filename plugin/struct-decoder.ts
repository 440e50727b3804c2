// The plugin's one reader of the engine's requests: every RPC's fields, and each `google.protobuf.Struct` of property values, are
// read here from the request's buffer with one cursor (no view or reader made per value: a batch's messages arrive on every Check
// and Diff). A secret is unwrapped here too, as it is read, and where it was is noted for the answer (`./property-values.ts`).
// google-protobuf's reader loses a `__proto__` key (which YAML and other SDKs send as plain data), so the value would be sent
// altered; read here, every key is an own property, and the schema refuses that one by name.
import type { Props } from "../provider/protocol";
import { recordSecrets, SECRET_SIG, type SecretMarks } from "./property-values";

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

class Cursor {
  pos = 0;
  /** How many secrets were unwrapped so far: a value read while it grew held one. */
  secrets = 0;
  /** Where the last value read that held a secret held it. */
  lastMarks: SecretMarks = true;
  constructor(readonly bytes: Buffer) {}

  varint(): number {
    const bytes = this.bytes;
    let result = 0;
    let scale = 1;
    // At most 10 bytes, as protobuf reads them: more would overflow into NaN and end every loop early.
    for (let read = 0; read < 10; read++) {
      if (this.pos >= bytes.length) throw new Error("truncated protobuf varint");
      const byte = bytes[this.pos++];
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new Error("malformed protobuf varint");
  }

  /** Each value must end where its length said: a fixed-width field or varint that ran past it misread the bytes after. */
  endsAt(end: number): void {
    if (this.pos !== end) throw new Error("truncated protobuf field");
  }

  /** The end of the length-delimited field starting here, which must lie within `limit`; the cursor moves to its first byte. */
  delimitedEnd(limit = this.bytes.length): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > limit) throw new Error("truncated protobuf field");
    return end;
  }

  text(end: number): string {
    const text = this.bytes.toString("utf8", this.pos, end);
    this.pos = end;
    return text;
  }

  double(): number {
    if (this.pos + 8 > this.bytes.length) throw new Error("truncated protobuf double");
    const value = this.bytes.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  skip(wire: number, limit = this.bytes.length): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_FIXED64) this.pos += 8;
    else if (wire === WIRE_BYTES) this.pos = this.delimitedEnd(limit);
    else if (wire === WIRE_FIXED32) this.pos += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

/** How a request's field is read: text, a Struct of property values, a flag, its bytes as they are, or a `map<string, string>`. */
export type FieldKind = "string" | "struct" | "bool" | "bytes" | "stringMap";
type FieldValue<K extends FieldKind> = K extends "string"
  ? string
  : K extends "struct"
    ? Props
    : K extends "bool"
      ? boolean
      : K extends "bytes"
        ? Uint8Array
        : ReadonlyMap<string, string>;

/**
 * The fields of a request message named in `layout` (by number), as protobuf reads them: a singular field's last occurrence, an
 * absent one its default (`""`, `{}`, `false`, no bytes, an empty map). Any other field is skipped.
 */
export function readMessage<L extends Record<string, readonly [number, FieldKind]>>(
  message: Uint8Array,
  layout: L,
): { [Name in keyof L]: FieldValue<L[Name][1]> } {
  const cursor = new Cursor(asBuffer(message));
  const byNumber = new Map(Object.entries(layout).map(([name, [number, kind]]) => [number, { name, kind }]));
  const read: Record<string, unknown> = {};
  while (cursor.pos < message.length) {
    const tag = cursor.varint();
    const field = byNumber.get(Math.floor(tag / 8));
    const wire = tag % 8;
    if (field === undefined || wire !== (field.kind === "bool" ? WIRE_VARINT : WIRE_BYTES)) {
      cursor.skip(wire);
      continue;
    }
    if (field.kind === "bool") {
      read[field.name] = cursor.varint() !== 0;
      continue;
    }
    const end = cursor.delimitedEnd();
    if (field.kind === "string") read[field.name] = cursor.text(end);
    else if (field.kind === "struct") read[field.name] = structAt(cursor, end);
    else if (field.kind === "bytes") read[field.name] = message.subarray(cursor.pos, end);
    else
      read[field.name] = ((read[field.name] as Map<string, string> | undefined) ?? new Map<string, string>()).set(...mapEntry(cursor, end));
    cursor.pos = end;
  }
  const defaults: Record<FieldKind, () => unknown> = {
    string: () => "",
    struct: () => ({}),
    bool: () => false,
    bytes: () => new Uint8Array(),
    stringMap: () => new Map<string, string>(),
  };
  for (const [name, [, kind]] of Object.entries(layout)) if (!(name in read)) read[name] = defaults[kind]();
  return read as { [Name in keyof L]: FieldValue<L[Name][1]> };
}

/** `google.protobuf.Struct`: `map<string, Value> fields = 1`, its secrets unwrapped (and recorded with the value returned). */
export function decodeStruct(bytes: Uint8Array): Props {
  return structAt(new Cursor(asBuffer(bytes)), bytes.length);
}

function structAt(cursor: Cursor, end: number): Props {
  const found = cursor.secrets;
  const props = readStruct(cursor, end) as Props;
  // A Struct of property values is never a secret itself: its fields are.
  return cursor.secrets === found ? props : recordSecrets(props, cursor.lastMarks as Exclude<SecretMarks, true>);
}

const ENTRY = 1 * 8 + WIRE_BYTES;
const KEY = 1 * 8 + WIRE_BYTES;
const VALUE = 2 * 8 + WIRE_BYTES;

/** One entry of a `map<string, string>`. */
function mapEntry(cursor: Cursor, end: number): [string, string] {
  let [key, value] = ["", ""];
  while (cursor.pos < end) {
    const tag = cursor.varint();
    if (tag === KEY) key = cursor.text(cursor.delimitedEnd(end));
    else if (tag === VALUE) value = cursor.text(cursor.delimitedEnd(end));
    else cursor.skip(tag % 8, end);
  }
  cursor.endsAt(end);
  return [key, value];
}

function readStruct(cursor: Cursor, end: number): unknown {
  const result: Props = {};
  let marks: Record<string, SecretMarks> | undefined;
  let signed = false;
  while (cursor.pos < end) {
    const tag = cursor.varint();
    if (tag !== ENTRY) {
      cursor.skip(tag % 8, end);
      continue;
    }
    const entryEnd = cursor.delimitedEnd(end);
    let key = "";
    let value: unknown = null;
    let held: SecretMarks | undefined;
    while (cursor.pos < entryEnd) {
      const inner = cursor.varint();
      if (inner === KEY) {
        key = cursor.text(cursor.delimitedEnd(entryEnd));
        if (key === SECRET_SIG.key) signed = true;
      } else if (inner === VALUE) {
        const found = cursor.secrets;
        value = readValue(cursor, cursor.delimitedEnd(entryEnd));
        held = cursor.secrets === found ? undefined : cursor.lastMarks;
      } else cursor.skip(inner % 8, entryEnd);
    }
    cursor.endsAt(entryEnd);
    // Never `result["__proto__"] = …`, which would set the prototype instead.
    if (key === "__proto__") Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
    else result[key] = value;
    if (held !== undefined) (marks ??= {})[key] = held;
  }
  cursor.endsAt(end);
  // `{ [sig]: secret, value }` is a secret: its value, unwrapped, stands in its place.
  if (signed && result[SECRET_SIG.key] === SECRET_SIG.value) {
    cursor.secrets++;
    cursor.lastMarks = true;
    return result.value;
  }
  if (marks !== undefined) cursor.lastMarks = marks;
  return result;
}

const NULL = 1 * 8 + WIRE_VARINT;
const NUMBER = 2 * 8 + WIRE_FIXED64;
const STRING = 3 * 8 + WIRE_BYTES;
const BOOL = 4 * 8 + WIRE_VARINT;
const STRUCT = 5 * 8 + WIRE_BYTES;
const LIST = 6 * 8 + WIRE_BYTES;

/** `google.protobuf.Value`: one of null (1), number (2), string (3), bool (4), struct (5), list (6). */
function readValue(cursor: Cursor, end: number): unknown {
  let value: unknown = null;
  while (cursor.pos < end) {
    const tag = cursor.varint();
    if (tag === STRING) value = cursor.text(cursor.delimitedEnd(end));
    else if (tag === STRUCT) value = readStruct(cursor, cursor.delimitedEnd(end));
    else if (tag === LIST) value = readList(cursor, cursor.delimitedEnd(end));
    else if (tag === NUMBER) value = cursor.double();
    else if (tag === BOOL) value = cursor.varint() !== 0;
    else if (tag === NULL) {
      cursor.varint();
      value = null;
    } else cursor.skip(tag % 8, end);
  }
  cursor.endsAt(end);
  return value;
}

/** `google.protobuf.ListValue`: `repeated Value values = 1`. A list holding a secret is marked whole, as the engine marks it. */
function readList(cursor: Cursor, end: number): unknown[] {
  const found = cursor.secrets;
  const values: unknown[] = [];
  while (cursor.pos < end) {
    const tag = cursor.varint();
    if (tag === 1 * 8 + WIRE_BYTES) values.push(readValue(cursor, cursor.delimitedEnd(end)));
    else cursor.skip(tag % 8, end);
  }
  cursor.endsAt(end);
  if (cursor.secrets !== found) cursor.lastMarks = true;
  return values;
}
