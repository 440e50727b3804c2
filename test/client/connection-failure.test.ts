/** Connection-level failures, told apart by what the user should check (pure, then through a real client). */
import net from "node:net";
import { MessagingClient } from "../../client";
import { connectionFailureKind, isConnectionError } from "../../errors";
import { freeLoopbackPort } from "../support/loopback-server";

it.each([
  [Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }), "refused"],
  [{ cause: { code: "ECONNREFUSED" } }, "refused"],
  [Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" }), "name_not_resolved"],
  [{ code: "EAI_AGAIN" }, "name_not_resolved"],
  [
    Object.assign(new Error("…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…"), {
      code: "ERR_SSL_WRONG_VERSION_NUMBER",
    }),
    "tls_to_plain_http",
  ],
  [new Error("80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number"), "tls_to_plain_http"],
  [{ code: "ECONNRESET" }, "other"],
  [new Error("socket hang up"), "other"],
  [undefined, "other"],
])("connectionFailureKind(%p) is %s", (error, kind) => {
  expect(connectionFailureKind(error)).toBe(kind);
});

it("a refused connection: a ConnectionError of kind refused saying to start the emulator, without the idempotency-key advice", async () => {
  const client = new MessagingClient({ apiKey: "sk_test_x", baseUrl: `http://127.0.0.1:${await freeLoopbackPort()}`, maxRetries: 0 });
  const thrown = await client
    .sendMessageBatch({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: "x" }] })
    .catch((error: unknown) => error)
    .finally(() => client.close());
  expect(isConnectionError(thrown)).toBe(true);
  expect(isConnectionError(thrown) && thrown.kind).toBe("refused");
  expect(String((thrown as Error).message)).toContain("npx -p pulumi-messaging messaging emulator");
  expect(String((thrown as Error).message)).not.toContain("retry with it");
});

it("refused after an attempt that reached the server (reset after connecting): the key to retry with is given, since the first may have taken effect", async () => {
  // The first connection is taken, then dropped; the server then stops listening, so the retry is refused.
  const server = net.createServer((socket) => {
    socket.destroy();
    server.close();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const client = new MessagingClient({ apiKey: "sk_test_x", baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
  const thrown = await client
    .sendMessageBatch(
      { stream: "transactional", messages: [{ tos: ["+254712345678"], body: "x" }] },
      { idempotencyKey: "k-reset-then-refused" },
    )
    .catch((error: unknown) => error)
    .finally(() => client.close());
  expect(isConnectionError(thrown) && thrown.kind).toBe("refused");
  expect(isConnectionError(thrown) && thrown.attempts).toBe(2);
  expect(String((thrown as Error).message)).toContain("idempotency key: k-reset-then-refused (retry with it");
});
