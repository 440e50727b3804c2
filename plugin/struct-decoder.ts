// google-protobuf's reader loses a `__proto__` key (which YAML and other SDKs send as plain data), so the value would be sent
// altered; read here, every key is an own property, and the schema refuses that one by name. One cursor walks the request's
// buffer with no view or reader made per value: a batch's messages arrive on every Check and Diff.
import type { Props } from "../provider/protocol";
import { knownSecretFree, SECRET_SIG } from "./property-values";

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

class Cursor {
  pos = 0;
  /** Whether a struct key was a secret's signature key: without one, nothing read needs revealing. */
  sawSecret = false;
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

/** The bytes of message field `field` (the last occurrence, as protobuf reads a singular field), if present. */
export function messageField(message: Uint8Array, field: number): Uint8Array | undefined {
  const cursor = new Cursor(asBuffer(message));
  let found: Uint8Array | undefined;
  while (cursor.pos < message.length) {
    const tag = cursor.varint();
    if (tag === field * 8 + WIRE_BYTES) {
      const end = cursor.delimitedEnd();
      found = message.subarray(cursor.pos, end);
      cursor.pos = end;
    } else cursor.skip(tag % 8);
  }
  return found;
}

/** `google.protobuf.Struct`: `map<string, Value> fields = 1`. */
export function decodeStruct(bytes: Uint8Array): Props {
  const cursor = new Cursor(asBuffer(bytes));
  const props = readStruct(cursor, bytes.length);
  return cursor.sawSecret ? props : knownSecretFree(props);
}

const ENTRY = 1 * 8 + WIRE_BYTES;
const KEY = 1 * 8 + WIRE_BYTES;
const VALUE = 2 * 8 + WIRE_BYTES;

function readStruct(cursor: Cursor, end: number): Props {
  const result: Props = {};
  while (cursor.pos < end) {
    const tag = cursor.varint();
    if (tag !== ENTRY) {
      cursor.skip(tag % 8, end);
      continue;
    }
    const entryEnd = cursor.delimitedEnd(end);
    let key = "";
    let value: unknown = null;
    while (cursor.pos < entryEnd) {
      const inner = cursor.varint();
      if (inner === KEY) {
        key = cursor.text(cursor.delimitedEnd(entryEnd));
        if (key === SECRET_SIG.key) cursor.sawSecret = true;
      } else if (inner === VALUE) value = readValue(cursor, cursor.delimitedEnd(entryEnd));
      else cursor.skip(inner % 8, entryEnd);
    }
    cursor.endsAt(entryEnd);
    // Never `result["__proto__"] = …`, which would set the prototype instead.
    if (key === "__proto__") Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
    else result[key] = value;
  }
  cursor.endsAt(end);
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

/** `google.protobuf.ListValue`: `repeated Value values = 1`. */
function readList(cursor: Cursor, end: number): unknown[] {
  const values: unknown[] = [];
  while (cursor.pos < end) {
    const tag = cursor.varint();
    if (tag === 1 * 8 + WIRE_BYTES) values.push(readValue(cursor, cursor.delimitedEnd(end)));
    else cursor.skip(tag % 8, end);
  }
  cursor.endsAt(end);
  return values;
}
