/**
 * The emulator's own pieces of hostile-input handling. The hostile requests themselves, one
 * row each, are in the table of test/support/hostile-cases.ts.
 */
import { isUtf8 } from "node:buffer";
import { firstInvalidUtf8 } from "../../emulator/http/body";
import { call, message, emulatorForAllTests } from "../support/emulator";

describe("a hostile-looking Idempotency-Key", () => {
  const emulator = emulatorForAllTests({ deliveryRetrySchedule: [] });

  it("uses an Idempotency-Key of __proto__ like any other key", async () => {
    const json = { stream: "transactional", messages: [message(1)] };
    const first = await call(emulator, "/v1/message_batches", { json, headers: { "idempotency-key": "__proto__" } });
    const again = await call(emulator, "/v1/message_batches", { json, headers: { "idempotency-key": "__proto__" } });
    expect(first.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers["idempotent-replayed"]).toBe("true");
  });
});

describe("firstInvalidUtf8 (where a body's UTF-8 breaks)", () => {
  it.each([
    ["ASCII", [0x61, 0x62], -1],
    ["é, €, 𝄞", [...Buffer.from("é€𝄞")], -1],
    ["a lone continuation byte", [0x61, 0x80], 1],
    ["a truncated sequence", [0x61, 0xe2, 0x82], 1],
    ["an overlong '/'", [0xc0, 0xaf], 0],
    ["an overlong 3-byte", [0xe0, 0x80, 0xaf], 0],
    ["a UTF-16 surrogate", [0x61, 0xed, 0xa0, 0x80], 1],
    ["above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["0xFF", [0x61, 0x62, 0xff], 2],
  ])("%s", (_name, bytes, offset) => {
    const buffer = Buffer.from(bytes as number[]);
    expect(firstInvalidUtf8(buffer)).toBe(offset);
    expect(isUtf8(buffer)).toBe(offset === -1);
  });
});
