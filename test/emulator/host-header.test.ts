/**
 * DNS rebinding: a page on another site can point its own name at 127.0.0.1 and drive the
 * emulator from a browser, which then sends that name as `Host`. The emulator answers only
 * the loopback names and the host it listens on (plus any `allowedHosts`): 403
 * `host_not_allowed` otherwise, before the body is read or the key is checked.
 */
import http from "node:http";
import { startEmulator, type Emulator } from "../../emulator";
import { basicAuth, VERSION, emulatorForAllTests } from "../support/emulator";

/** One request with exactly this `Host` header (node:http sends what it is given). */
function withHost(
  emulator: Emulator,
  host: string,
  path = "/_emulator/endpoints",
  body?: string,
): Promise<{ status: number; text: string; contentType: string | undefined }> {
  const target = new URL(emulator.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: body === undefined ? "GET" : "POST",
        headers: {
          host,
          authorization: basicAuth(emulator.apiKey),
          "x-service-version": VERSION,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, contentType: res.headers["content-type"] }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the Host header", () => {
  const emulator = emulatorForAllTests({ deliveryRetrySchedule: [] });

  const port = () => new URL(emulator.url).port;

  it.each([["localhost"], ["LOCALHOST"], ["127.0.0.1"], ["[::1]"]])("%s (with and without the port) is answered", async (name) => {
    expect((await withHost(emulator, name)).status).toBe(200);
    expect((await withHost(emulator, `${name}:${port()}`)).status).toBe(200);
  });

  it.each([["evil.example"], ["attacker.test:80"], ["127.0.0.1.nip.io"], ["localhost.evil.example"], ["0x7f.1"]])(
    "%p is refused with 403 host_not_allowed, nothing done",
    async (host) => {
      const before = emulator.batches().length;
      const body = JSON.stringify({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hi" }] });
      const answer = await withHost(emulator, host, "/v1/message_batches", body);
      expect(answer.status).toBe(403);
      expect(answer.contentType).toContain("application/problem+json");
      expect(JSON.parse(answer.text)).toMatchObject({ title: "host_not_allowed" });
      expect(JSON.parse(answer.text).detail).toContain("allowedHosts");
      expect(emulator.batches()).toHaveLength(before);
      expect((await withHost(emulator, host)).status).toBe(403);
    },
  );
});

describe("allowedHosts", () => {
  it("adds names (any port), and the host it listens on is allowed", async () => {
    const emulator = await startEmulator({ host: "127.0.0.1", allowedHosts: ["dev.example", "Box.Local"] });
    try {
      expect((await withHost(emulator, "dev.example")).status).toBe(200);
      expect((await withHost(emulator, "box.local:8080")).status).toBe(200);
      expect((await withHost(emulator, "other.example")).status).toBe(403);
    } finally {
      await emulator.close();
    }
  });

  it('["*"] answers any Host', async () => {
    const emulator = await startEmulator({ allowedHosts: ["*"] });
    try {
      expect((await withHost(emulator, "evil.example")).status).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  it.each([["a b"], ["x.example:80"], ["http://x.example"]])("refuses %p, which is not a host name", async (name) => {
    const started = startEmulator({ allowedHosts: [name] });
    // Closed if it started after all, so a failure here leaves no server behind.
    void started.then(
      (emulator) => emulator.close(),
      () => undefined,
    );
    await expect(started).rejects.toThrow(/allowedHosts/);
  });
});
