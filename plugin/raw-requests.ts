// Check and Diff, which carry a batch's messages on every pass, are read from their wire bytes: google-protobuf builds two
// objects per value, and `./struct-decoder.ts` also keeps a `__proto__` key the schema must see. Unchanged news are sent back as is.
import { CheckFailure } from "@pulumi/pulumi/proto/provider_pb";
import type { Props } from "../provider/protocol";
import { decodeStruct, messageField } from "./struct-decoder";

/** `pulumirpc.CheckRequest`: urn = 1, olds = 2, news = 3. */
export interface RawCheckRequest {
  readonly urn: string;
  readonly olds: Props;
  readonly news: Props;
  readonly newsBytes: Uint8Array;
}

/** `pulumirpc.DiffRequest`: id = 1, urn = 2, olds = 3, news = 4 (old_inputs = 6 is not read: `diff` compares with the state). */
export interface RawDiffRequest {
  readonly id: string;
  readonly urn: string;
  readonly olds: Props;
  readonly news: Props;
}

const text = (bytes: Uint8Array | undefined): string =>
  bytes === undefined ? "" : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");
const struct = (bytes: Uint8Array | undefined): Props => (bytes === undefined ? {} : decodeStruct(bytes));

export function readCheckRequest(bytes: Uint8Array): RawCheckRequest {
  const newsBytes = messageField(bytes, 3) ?? new Uint8Array();
  return { urn: text(messageField(bytes, 1)), olds: struct(messageField(bytes, 2)), news: decodeStruct(newsBytes), newsBytes };
}

export function readDiffRequest(bytes: Uint8Array): RawDiffRequest {
  return {
    id: text(messageField(bytes, 1)),
    urn: text(messageField(bytes, 2)),
    olds: struct(messageField(bytes, 3)),
    news: struct(messageField(bytes, 4)),
  };
}

function delimited(field: number, bytes: Uint8Array): Buffer[] {
  const header: number[] = [(field << 3) | 2];
  for (let length = bytes.length; ; length = Math.floor(length / 128)) {
    if (length < 128) {
      header.push(length);
      break;
    }
    header.push((length % 128) | 0x80);
  }
  return [Buffer.from(header), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)];
}

/** `pulumirpc.CheckResponse` (inputs = 1, failures = 2) with its inputs given as a Struct's bytes. */
export function checkResponseBytes(inputs: Uint8Array, failures: ReadonlyArray<{ property: string; reason: string }>): Buffer {
  const parts = delimited(1, inputs);
  for (const { property, reason } of failures) {
    parts.push(...delimited(2, new CheckFailure().setProperty(property).setReason(reason).serializeBinary()));
  }
  return Buffer.concat(parts);
}
