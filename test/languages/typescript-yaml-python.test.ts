/**
 * The same program in three languages gives the same result: its TypeScript version
 * `test/fixtures/yaml-twin` (the dynamic resources), `examples/yaml` and `examples/python` (the
 * provider plugin, installed from its archive; Python through the generated SDK, run as an
 * Automation API inline program), all deployed by the real `pulumi` through one proxy in front
 * of one emulator. Compared: the outputs apart from ids and secrets, and what the service
 * received: the endpoint's form fields, the batch's chunks, and the shape of every idempotency key.
 * The examples' batch is one call; a batch of 2,500 SMS-length messages (several calls, byte for byte) is compared
 * between TypeScript (test/fixtures/sms-batch-twin) and Python (test/fixtures/python-sms-batch):
 * YAML has no loop to write one.
 */
import * as path from "node:path";
import { startRefusingProxy, type ForwardedRequest, type RefusingProxy } from "../support/fake-services";
import { expectOk, useRealEngine, type OperationResult } from "../support/real-engine";
import { describeLanguage, pythonExecutable } from "./toolchains";

const API_KEY = "sk_test_real_twins_9f3d";

/** What a run sent, with what differs by design (the keys' random or scope-derived parts) reduced to its shape. */
function sent(requests: ForwardedRequest[]) {
  return requests.map((request) => ({
    method: request.method,
    path: request.path,
    contentType: request.contentType,
    idempotencyKey: request.idempotencyKey?.replace(/[0-9a-f]{16,}/g, "<hex>"),
    body: request.contentType?.startsWith("application/x-www-form-urlencoded")
      ? [...new URLSearchParams(request.body).entries()].sort()
      : JSON.parse(request.body),
  }));
}

/** The outputs, ids and secrets replaced by their kind. */
function outputs(result: OperationResult) {
  return Object.fromEntries(
    Object.entries(result.outputs ?? {}).map(([name, { value, secret }]) => [
      name,
      { secret, value: typeof value === "string" && /^(we|whsec)_/.test(value) ? value.slice(0, value.indexOf("_") + 1) : value },
    ]),
  );
}

const PYTHON_DRIVER = path.join(__dirname, "python", "inline_program.py");

describeLanguage("python")("the same program in TypeScript, YAML and Python", () => {
  const suite = useRealEngine(API_KEY);
  let proxy: RefusingProxy;
  beforeAll(async () => {
    proxy = await startRefusingProxy(suite.emulator.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  test("the same outputs, form fields, chunks and idempotency-key scheme", async () => {
    const config = { ...suite.serviceConfig(proxy.url), receiverUrl: "https://hooks.example.com/twins" };
    const runs: Array<{ result: OperationResult; requests: ForwardedRequest[] }> = [];

    const typescript = await suite.stack("yaml-twin", { config });
    let from = proxy.forwarded();
    runs.push({ result: expectOk(await typescript.up()), requests: proxy.requests().slice(from) });

    const yaml = await suite.stack("examples/yaml", { config, plugin: true });
    from = proxy.forwarded();
    runs.push({ result: expectOk(await yaml.up()), requests: proxy.requests().slice(from) });

    const python = await suite.stack("examples/python", {
      config,
      plugin: true,
      inlineRunner: (request) => [pythonExecutable(), PYTHON_DRIVER, request],
    });
    from = proxy.forwarded();
    runs.push({ result: expectOk(await python.up()), requests: proxy.requests().slice(from) });

    const [ts, yml, py] = runs;
    expect(outputs(yml.result)).toEqual(outputs(ts.result));
    expect(outputs(py.result)).toEqual(outputs(ts.result));
    expect(outputs(ts.result)).toEqual({
      endpointId: { secret: false, value: "we_" },
      signingSecret: { secret: true, value: "whsec_" },
      messageCount: { secret: false, value: 2 },
    });
    // Each created once, in the same calls; the endpoint and the batch may go in either order.
    const byPath = (requests: ForwardedRequest[]) => sent(requests).sort((a, b) => a.path.localeCompare(b.path));
    expect(byPath(yml.requests)).toEqual(byPath(ts.requests));
    expect(byPath(py.requests)).toEqual(byPath(ts.requests));
    expect(ts.requests.map((request) => request.path).sort()).toEqual(["/v1/message_batches", "/v1/webhooks/endpoints"]);
    // The three routes are three stacks: their keys are distinct, though of one scheme.
    expect(new Set(runs.flatMap((run) => run.requests.map((request) => request.idempotencyKey))).size).toBe(6);
  });

  test("a batch of 2,500 SMS-length messages: the same calls, bodies (byte for byte) and key scheme from TypeScript and Python", async () => {
    const config = { ...suite.serviceConfig(proxy.url), "python-sms-batch:messages": "2500" };
    const runs: ForwardedRequest[][] = [];
    const typescript = await suite.stack("sms-batch-twin", { config });
    let from = proxy.forwarded();
    expectOk(await typescript.up());
    runs.push(proxy.requests().slice(from));

    const python = await suite.stack("python-sms-batch", {
      config,
      plugin: true,
      inlineRunner: (request) => [pythonExecutable(), PYTHON_DRIVER, request],
    });
    from = proxy.forwarded();
    expectOk(await python.up());
    runs.push(proxy.requests().slice(from));

    // One call at a time, in order: the same calls, byte for byte, from either route.
    const [ts, py] = runs.map(sent);
    const sizes = ts.map((request) => request.body.messages.length);
    expect(sizes.reduce((a: number, b: number) => a + b, 0)).toBe(2500);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1000);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(ts.map((request) => request.idempotencyKey)).toEqual(sizes.map(() => "mc3-<hex>"));
    expect(py).toEqual(ts);
    expect(runs[1].map((request) => request.body)).toEqual(runs[0].map((request) => request.body));
  });
});
