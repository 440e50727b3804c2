// google-protobuf's reader loses a `__proto__` key (which YAML and other SDKs send as plain data), so the value would be sent
// altered; read here, every key is an own property, and the schema refuses that one by name.
import type { Props } from "../provider/protocol";

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

class Reader {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  varint(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.bytes.length) throw new Error("truncated protobuf varint");
      const byte = this.bytes[this.pos++];
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
  }

  tag(): { field: number; wire: number } {
    const tag = this.varint();
    return { field: Math.floor(tag / 8), wire: tag % 8 };
  }

  delimited(): Uint8Array {
    const length = this.varint();
    if (this.pos + length > this.bytes.length) throw new Error("truncated protobuf field");
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }

  double(): number {
    if (this.pos + 8 > this.bytes.length) throw new Error("truncated protobuf double");
    const value = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.pos, 8).readDoubleLE(0);
    this.pos += 8;
    return value;
  }

  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_FIXED64) this.pos += 8;
    else if (wire === WIRE_BYTES) this.delimited();
    else if (wire === WIRE_FIXED32) this.pos += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

const text = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");

/** The bytes of message field `field` (the last occurrence, as protobuf reads a singular field), if present. */
export function messageField(message: Uint8Array, field: number): Uint8Array | undefined {
  const reader = new Reader(message);
  let found: Uint8Array | undefined;
  while (!reader.done) {
    const tag = reader.tag();
    if (tag.field === field && tag.wire === WIRE_BYTES) found = reader.delimited();
    else reader.skip(tag.wire);
  }
  return found;
}

/** `google.protobuf.Struct`: `map<string, Value> fields = 1`. */
export function decodeStruct(bytes: Uint8Array): Props {
  const result: Props = {};
  const reader = new Reader(bytes);
  while (!reader.done) {
    const tag = reader.tag();
    if (tag.field !== 1 || tag.wire !== WIRE_BYTES) {
      reader.skip(tag.wire);
      continue;
    }
    const entry = new Reader(reader.delimited());
    let key = "";
    let value: unknown = null;
    while (!entry.done) {
      const inner = entry.tag();
      if (inner.field === 1 && inner.wire === WIRE_BYTES) key = text(entry.delimited());
      else if (inner.field === 2 && inner.wire === WIRE_BYTES) value = decodeValue(entry.delimited());
      else entry.skip(inner.wire);
    }
    // Never an assignment: `result["__proto__"] = …` would set the prototype instead.
    Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
  }
  return result;
}

/** `google.protobuf.Value`: one of null (1), number (2), string (3), bool (4), struct (5), list (6). */
function decodeValue(bytes: Uint8Array): unknown {
  const reader = new Reader(bytes);
  let value: unknown = null;
  while (!reader.done) {
    const { field, wire } = reader.tag();
    if (field === 1 && wire === WIRE_VARINT) {
      reader.varint();
      value = null;
    } else if (field === 2 && wire === WIRE_FIXED64) value = reader.double();
    else if (field === 3 && wire === WIRE_BYTES) value = text(reader.delimited());
    else if (field === 4 && wire === WIRE_VARINT) value = reader.varint() !== 0;
    else if (field === 5 && wire === WIRE_BYTES) value = decodeStruct(reader.delimited());
    else if (field === 6 && wire === WIRE_BYTES) value = decodeList(reader.delimited());
    else reader.skip(wire);
  }
  return value;
}

/** `google.protobuf.ListValue`: `repeated Value values = 1`. */
function decodeList(bytes: Uint8Array): unknown[] {
  const reader = new Reader(bytes);
  const values: unknown[] = [];
  while (!reader.done) {
    const { field, wire } = reader.tag();
    if (field === 1 && wire === WIRE_BYTES) values.push(decodeValue(reader.delimited()));
    else reader.skip(wire);
  }
  return values;
}
