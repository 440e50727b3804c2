// Every request the plugin serves, read from its wire bytes by one reader (`./struct-decoder.ts`), each Struct of property values
// with its secrets unwrapped; google-protobuf only writes the answers. Where an answer is a request's own value (Check's unchanged
// news, Read's inputs, a preview's), it is sent back as the request's bytes, secrets as they came.
import { CheckFailure } from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { Props } from "../provider/protocol";
import { decodeStruct, readMessage } from "./struct-decoder";

/** `pulumirpc.CheckRequest` (Check and CheckConfig): urn = 1, olds = 2, news = 3. */
export function readCheckRequest(bytes: Uint8Array) {
  const { urn, olds, newsBytes } = readMessage(bytes, { urn: [1, "string"], olds: [2, "struct"], newsBytes: [3, "bytes"] });
  return { urn, olds, news: decodeStruct(newsBytes), newsBytes };
}
export type CheckRequest = ReturnType<typeof readCheckRequest>;

/** `pulumirpc.DiffRequest` (Diff and DiffConfig): id = 1, urn = 2, olds = 3, news = 4 (old_inputs = 6 is not read: `diff` compares with the state). */
export const readDiffRequest = (bytes: Uint8Array) =>
  readMessage(bytes, { id: [1, "string"], urn: [2, "string"], olds: [3, "struct"], news: [4, "struct"] });
export type DiffRequest = ReturnType<typeof readDiffRequest>;

/** `pulumirpc.CreateRequest`: urn = 1, properties = 2, preview = 4. */
export function readCreateRequest(bytes: Uint8Array) {
  const { urn, propertiesBytes, preview } = readMessage(bytes, { urn: [1, "string"], propertiesBytes: [2, "bytes"], preview: [4, "bool"] });
  return { urn, properties: decodeStruct(propertiesBytes), propertiesBytes, preview };
}
export type CreateRequest = ReturnType<typeof readCreateRequest>;

/** `pulumirpc.ReadRequest`: id = 1, urn = 2, properties = 3, inputs = 4 (answered as they came). */
export const readReadRequest = (bytes: Uint8Array) =>
  readMessage(bytes, { id: [1, "string"], urn: [2, "string"], properties: [3, "struct"], inputsBytes: [4, "bytes"] });
export type ReadRequest = ReturnType<typeof readReadRequest>;

/** `pulumirpc.UpdateRequest`: id = 1, urn = 2, olds = 3, news = 4, preview = 7. */
export function readUpdateRequest(bytes: Uint8Array) {
  const fields = readMessage(bytes, {
    id: [1, "string"],
    urn: [2, "string"],
    olds: [3, "struct"],
    newsBytes: [4, "bytes"],
    preview: [7, "bool"],
  });
  return { ...fields, news: decodeStruct(fields.newsBytes) };
}
export type UpdateRequest = ReturnType<typeof readUpdateRequest>;

/** `pulumirpc.DeleteRequest`: id = 1, urn = 2, properties = 3. */
export const readDeleteRequest = (bytes: Uint8Array) =>
  readMessage(bytes, { id: [1, "string"], urn: [2, "string"], properties: [3, "struct"] });
export type DeleteRequest = ReturnType<typeof readDeleteRequest>;

/** `pulumirpc.ConfigureRequest`: variables = 1, args = 2, id = 7. */
export const readConfigureRequest = (bytes: Uint8Array) =>
  readMessage(bytes, { variables: [1, "stringMap"], args: [2, "struct"], id: [7, "string"] });
export type ConfigureRequest = ReturnType<typeof readConfigureRequest>;

/** A length-delimited field: its tag, its length and its bytes. */
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

// `undefined` cannot cross (Struct rejects it): JSON drops it, as a provider's outputs never hold one on purpose.
const structBytes = (props: Props): Uint8Array => Struct.fromJavaScript(JSON.parse(JSON.stringify(props))).serializeBinary();

/** `pulumirpc.CheckResponse` (inputs = 1, failures = 2) with its inputs given as a Struct's bytes. */
export function checkResponseBytes(inputs: Uint8Array, failures: ReadonlyArray<{ property: string; reason: string }>): Buffer {
  const parts = delimited(1, inputs);
  for (const { property, reason } of failures) {
    parts.push(...delimited(2, new CheckFailure().setProperty(property).setReason(reason).serializeBinary()));
  }
  return Buffer.concat(parts);
}

/** `pulumirpc.ReadResponse`: id = 1, properties = 2, inputs = 3 (the request's own bytes). */
export const readResponseBytes = (id: string, properties: Props, inputs: Uint8Array): Buffer =>
  Buffer.concat([...delimited(1, Buffer.from(id)), ...delimited(2, structBytes(properties)), ...delimited(3, inputs)]);

/** `pulumirpc.CreateResponse` of a preview: properties = 2, the request's own. */
export const previewCreateBytes = (properties: Uint8Array): Buffer => Buffer.concat(delimited(2, properties));

/** `pulumirpc.UpdateResponse` of a preview: properties = 1, the request's news. */
export const previewUpdateBytes = (news: Uint8Array): Buffer => Buffer.concat(delimited(1, news));
