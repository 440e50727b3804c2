/**
 * A `__proto__` key in a resource's inputs is refused, naming the field, before anything is
 * sent: on the plugin route by Check, which reads the new inputs from the request's bytes
 * (google-protobuf's reader drops the key), and on the TypeScript route by the resource
 * class, before Pulumi's serializer (which copies by assignment) can alter the value.
 */
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { servePlugin } from "../../plugin/main";
import { decodeStruct } from "../../plugin/struct-decoder";
import { markSecrets, secret, SECRET_SIG } from "../../plugin/property-values";
import { refuseProtoKeys } from "../../provider/resource-options";

const varint = (n: number): Buffer => {
  const bytes: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) bytes.push((n % 128) | 0x80);
  bytes.push(n);
  return Buffer.from(bytes);
};
/** A length-delimited protobuf field. */
const field = (number: number, bytes: Buffer) => Buffer.concat([varint(number * 8 + 2), varint(bytes.length), bytes]);

/** A value as `google.protobuf.Struct` wire bytes, every own key included (a `__proto__` one too). */
function structBytes(object: Record<string, unknown>): Buffer {
  const value = (v: unknown): Buffer => {
    if (v === null) return Buffer.from([0x08, 0x00]);
    if (typeof v === "string") return field(3, Buffer.from(v));
    if (typeof v === "boolean") return Buffer.from([0x20, v ? 1 : 0]);
    if (typeof v === "number") {
      const double = Buffer.alloc(8);
      double.writeDoubleLE(v);
      return Buffer.concat([Buffer.from([0x11]), double]);
    }
    if (Array.isArray(v)) return field(6, Buffer.concat(v.map((item) => field(1, value(item)))));
    return field(5, structBytes(v as Record<string, unknown>));
  };
  return Buffer.concat(
    Object.keys(object).map((key) => field(1, Buffer.concat([field(1, Buffer.from(key)), field(2, value(object[key]))]))),
  );
}

// JSON.parse makes `__proto__` an own key, as a YAML program's value arrives.
const withProtoKey = () =>
  JSON.parse(
    `{"stream":"transactional","messages":[{"tos":["+254712345678"],"template":{"id":"tmpl_otp","model":{"__proto__":{"code":"123456"},"name":"Amina"}}}]}`,
  ) as Record<string, unknown>;

test("the plugin's struct reader keeps every value as google-protobuf reads it, and a __proto__ key as an own member", () => {
  const plain = {
    a: "x",
    n: 1.5,
    t: true,
    z: null,
    list: [1, "two", { deep: [false] }],
    nested: { k: { j: "v" } },
    text: "Habari, Zoë: ✓ 🚀",
    empty: { "": "", list: [], struct: {} },
    numbers: [-0.25, 2 ** 53, 1e-300],
  };
  expect(decodeStruct(structBytes(plain))).toEqual(Struct.deserializeBinary(structBytes(plain)).toJavaScript());
  const decoded = decodeStruct(structBytes(withProtoKey())) as { messages: Array<{ template: { model: object } }> };
  const model = decoded.messages[0].template.model;
  expect(Object.getOwnPropertyDescriptor(model, "__proto__")?.value).toEqual({ code: "123456" });
  expect(Object.getPrototypeOf(model)).toBe(Object.prototype);
  // What google-protobuf's own reader makes of the same bytes: the key is gone.
  const lossy = Struct.deserializeBinary(structBytes(withProtoKey())).toJavaScript() as typeof decoded;
  expect(Object.keys(lossy.messages[0].template.model)).toEqual(["name"]);
});

test("the struct reader refuses a field that runs past the value holding it, even when the request's bytes go on, and an endless varint", () => {
  // An entry whose value claims 40 bytes though the entry holds 3 of them; the next entry supplies the rest of the bytes.
  const overlong = Buffer.concat([field(1, Buffer.from("k")), varint(2 * 8 + 2), varint(40), Buffer.from([0x1a, 0x01, 0x78])]);
  const bytes = Buffer.concat([field(1, overlong), structBytes({ after: "x".repeat(60) })]);
  expect(() => decodeStruct(bytes)).toThrow(/truncated protobuf field/);
  // A number tag with none of its 8 bytes: they would be read from the next entry, which would vanish.
  const numberless = Buffer.concat([field(1, Buffer.concat([field(1, Buffer.from("a")), field(2, Buffer.from([0x11]))]))]);
  expect(() => decodeStruct(Buffer.concat([numberless, structBytes({ b: "hello" })]))).toThrow(/truncated protobuf field/);
  // A length of more than 10 varint bytes, which protobuf refuses.
  const endless = Buffer.concat([field(1, Buffer.from("a")), Buffer.from([0x12]), Buffer.alloc(12, 0x80), Buffer.from([0x00])]);
  expect(() => decodeStruct(field(1, endless))).toThrow(/malformed protobuf varint/);
});

test("a secret at any depth of what the struct reader read is revealed, and marked again where it was in what is answered", () => {
  const wrapped = { [SECRET_SIG.key]: SECRET_SIG.value, value: "+254712345678" };
  const withSecret = decodeStruct(structBytes({ stream: "transactional", messages: [{ tos: [wrapped], body: "hi" }] }));
  expect(withSecret).toEqual({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hi" }] });
  // The engine's rule: a list holding a secret is secret whole; a plain object's members are marked one by one.
  expect(markSecrets(withSecret, withSecret, [])).toEqual({ stream: "transactional", messages: secret(withSecret.messages) });
  const nested = decodeStruct(structBytes({ adopt: { id: "we_1", secret: { [SECRET_SIG.key]: SECRET_SIG.value, value: "whsec_x" } } }));
  expect(nested).toEqual({ adopt: { id: "we_1", secret: "whsec_x" } });
  expect(markSecrets(nested, nested, [])).toEqual({ adopt: { id: "we_1", secret: secret("whsec_x") } });
  const plain = decodeStruct(structBytes({ stream: "transactional" }));
  expect(markSecrets(plain, plain, [])).toEqual({ stream: "transactional" });
});

test("plugin route: Check refuses a MessageBatch whose template model has a __proto__ key, naming the field", async () => {
  const { port, server } = await servePlugin([]);
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    const urn = "urn:pulumi:dev::shop::messaging:index:MessageBatch::otp";
    // CheckRequest: urn (1), olds (2), news (3).
    const request = Buffer.concat([field(1, Buffer.from(urn)), field(2, Buffer.alloc(0)), field(3, structBytes(withProtoKey()))]);
    const response = await new Promise<proto.CheckResponse>((resolve, reject) =>
      client.makeUnaryRequest(
        "/pulumirpc.ResourceProvider/Check",
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => proto.CheckResponse.deserializeBinary(bytes),
        request,
        (error, answer) => (error ? reject(error) : resolve(answer!)),
      ),
    );
    const failures = response.getFailuresList().map((failure) => `${failure.getProperty()}: ${failure.getReason()}`);
    expect(failures).toEqual([expect.stringMatching(/^messages\.0\.template\.model\.__proto__: .*__proto__/)]);
  } finally {
    client.close();
    server.forceShutdown();
  }
});

describe("TypeScript route: the resource class refuses before Pulumi serializes the inputs", () => {
  test("an own __proto__ key (a value read with JSON.parse) is refused, naming the field", () => {
    expect(() => refuseProtoKeys("MessageBatch", "otp", withProtoKey())).toThrow(
      /Invalid inputs of MessageBatch "otp":\n {2}messages\[0\]\.template\.model\["__proto__"\]: a `__proto__` key is refused/,
    );
  });

  test('an object literal\'s "__proto__": {…}, which sets the prototype, is refused, naming the object', () => {
    const model = { __proto__: { code: "123456" }, name: "Amina" };
    const args = { stream: "transactional", messages: [{ tos: ["+254712345678"], template: { id: "tmpl_otp", model } }] };
    expect(() => refuseProtoKeys("MessageBatch", "otp", args)).toThrow(
      /messages\[0\]\.template\.model: an object with a prototype of its own/,
    );
  });

  test("plain inputs, and class instances such as a Date among triggers, pass unchanged", () => {
    const args = { stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hi" }], triggers: [new Date(0)] };
    expect(refuseProtoKeys("MessageBatch", "otp", args)).toEqual(args);
  });
});
