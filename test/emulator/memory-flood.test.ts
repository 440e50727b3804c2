/**
 * The emulator's bound on request bodies in flight holds however many arrive at once: bodies
 * declared together are counted at their declared size from the moment they are admitted, a
 * chunked body is counted as it arrives and stopped once it would go over, and a client that
 * asks `Expect: 100-continue` for a body that will be refused gets its answer without sending it.
 */
import * as net from "node:net";
import { startEmulator, type Emulator } from "../../emulator";
import { basicAuth } from "../support/emulator";

const MIB = 1024 * 1024;

let emulator: Emulator;
const sockets: net.Socket[] = [];
beforeEach(async () => {
  emulator = await startEmulator({ maxInFlightBytes: 4 * MIB });
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await emulator.close();
});

/** A raw upload to `POST /v1/message_batches`: its head now, its body when asked; the status of its answer. */
function upload(head: Record<string, string>) {
  const socket = net.connect(Number(new URL(emulator.url).port), "127.0.0.1");
  sockets.push(socket);
  let received = "";
  const status = new Promise<number>((resolve) => {
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const final = /HTTP\/1\.1 ([2-5]\d\d) /.exec(received.replace(/HTTP\/1\.1 100 Continue\r\n\r\n/g, ""));
      if (final) resolve(Number(final[1]));
    });
    socket.on("close", () => resolve(0));
    socket.on("error", () => undefined);
  });
  const lines = Object.entries({
    Host: "127.0.0.1",
    Authorization: basicAuth(emulator.apiKey),
    "X-Service-Version": "2024-06-01",
    "Content-Type": "application/json",
    ...head,
  }).map(([name, value]) => `${name}: ${value}`);
  socket.write(`POST /v1/message_batches HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
  return { socket, status, sawContinue: () => received.includes("100 Continue") };
}

/** Resolves once the emulator has seen `count` API requests (their heads). */
async function requestsSeen(count: number): Promise<void> {
  while (emulator.requestCount() < count) await new Promise((resolve) => setImmediate(resolve));
}

test("twenty 1 MiB bodies declared at once under a 4 MiB bound: four are read, the rest answered 503 before a byte", async () => {
  const uploads = Array.from({ length: 20 }, () => upload({ "Content-Length": String(MIB) }));
  await requestsSeen(20);
  // Every body is still unsent: the refusals are already on their way.
  const body = Buffer.alloc(MIB, 0x20);
  for (const { socket } of uploads) socket.write(body);
  const statuses = await Promise.all(uploads.map((one) => one.status));
  expect(statuses.filter((status) => status === 503)).toHaveLength(16);
  // The four read are answered on their merits (a body of spaces is not a batch).
  expect(statuses.filter((status) => status === 400)).toHaveLength(4);
});

test("chunked bodies of unknown size are counted as they arrive: once the bound is spent, the next chunk gets 503", async () => {
  const uploads = Array.from({ length: 10 }, () => upload({ "Transfer-Encoding": "chunked" }));
  await requestsSeen(10);
  const chunk = Buffer.alloc(MIB / 2, 0x20);
  const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
  // Two chunks each, none finished: 10 MiB offered at once against a 4 MiB bound.
  const answered: number[] = [];
  for (const { socket, status } of uploads) {
    socket.write(frame);
    socket.write(frame);
    void status.then((code) => answered.push(code));
  }
  // The refusals come while the bodies are open (a bound on the wait, not a measure of speed).
  for (let waited = 0; answered.filter((code) => code === 503).length < 6 && waited < 30_000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (const { socket } of uploads) socket.end("0\r\n\r\n");
  const statuses = await Promise.all(uploads.map((one) => one.status));
  const refused = statuses.filter((status) => status === 503).length;
  // At most 4 MiB held: four uploads' 1 MiB each, or fewer.
  expect(refused).toBeGreaterThanOrEqual(6);
  expect(statuses.filter((status) => status !== 503).every((status) => status === 400)).toBe(true);
});

test("Expect: 100-continue: a body over the size cap, or with no room, is answered without a 100 Continue", async () => {
  const tooLarge = upload({ "Content-Length": String(11 * MIB), Expect: "100-continue" });
  expect(await tooLarge.status).toBe(413);
  expect(tooLarge.sawContinue()).toBe(false);

  const first = upload({ "Content-Length": String(3 * MIB), Expect: "100-continue" });
  await requestsSeen(2);
  const noRoom = upload({ "Content-Length": String(2 * MIB), Expect: "100-continue" });
  expect(await noRoom.status).toBe(503);
  expect(noRoom.sawContinue()).toBe(false);
  // The first was told to go on.
  while (!first.sawContinue()) await new Promise((resolve) => setImmediate(resolve));
  first.socket.write(Buffer.alloc(3 * MIB, 0x20));
  expect(await first.status).toBe(400);
});
