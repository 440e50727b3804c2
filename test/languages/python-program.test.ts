/**
 * examples/python, deployed through the real `pulumi` CLI with the provider plugin installed
 * from its packed archive: the example's `__main__.py`, unchanged, importing the generated SDK
 * (sdk/python, pip-installed into a venv with `pulumi` from PyPI). It runs as an Automation API
 * inline program (test/languages/python/inline_program.py): the Python language host cannot be
 * built here. preview, up, an unchanged up, refresh and destroy in one stack. Where a CLI with
 * `pulumi-language-python` is on PATH, the example also runs with plain `pulumi up` in its folder.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packPlugin, type PluginArchive } from "../../scripts/pack-plugin";
import { expectOk, opsByName, output, useRealEngine } from "../support/real-engine";
import { describeLanguage, languageHost, pythonExecutable } from "./toolchains";

const API_KEY = "sk_test_real_python_5c1a";
const DRIVER = path.join(__dirname, "python", "inline_program.py");

describeLanguage("python")("examples/python through the generated SDK (Automation API inline program)", () => {
  const suite = useRealEngine(API_KEY);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-python-"));
  let plugin: PluginArchive;
  beforeAll(async () => {
    plugin = await packPlugin(scratch);
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("ran inline: preview with no service call, up, an unchanged up with no call, refresh, destroy; the secret stays secret, the batch goes out once", async () => {
    const stack = await suite.stack("examples/python", {
      config: { receiverUrl: "https://hooks.example.com/python" },
      inlineRunner: (request) => [pythonExecutable(), DRIVER, request],
    });
    await stack.cli(["plugin", "install", "resource", "messaging", plugin.version, "--file", plugin.archive]);

    const preview = expectOk(await stack.preview());
    expect(opsByName(preview)).toEqual({ payments: ["create"], welcome: ["create"] });
    expect(suite.emulator.requestCount()).toBe(0);

    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ payments: ["create"], welcome: ["create"] });
    const id = String(output(up, "endpointId"));
    const endpoint = suite.emulator.endpoints().find((recorded) => recorded.id === id);
    expect(endpoint).toMatchObject({
      url: "https://hooks.example.com/python",
      events: ["payment.succeeded", "identity.verification.created"],
      description: "billing receiver",
    });
    expect(up.outputs?.signingSecret).toEqual({ value: endpoint!.secret, secret: true });
    const exported = JSON.stringify(await stack.exportState());
    expect(exported).not.toContain(endpoint!.secret);
    expect(exported).not.toContain(API_KEY);
    expect(suite.emulator.batches()).toHaveLength(1);
    expect(suite.emulator.batches()[0].messages.map((message) => message.tos[0])).toEqual(["+254712345678", "+254712345679"]);
    expect(output(up, "messageCount")).toBe(2);

    const before = suite.emulator.requestCount();
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ payments: ["same"], welcome: ["same"] });
    expect(opsByName(expectOk(await stack.refresh()))).toEqual({ payments: ["refresh"], welcome: ["refresh"] });
    expect(suite.emulator.requestCount()).toBe(before);

    const destroyed = expectOk(await stack.destroy());
    expect(opsByName(destroyed)).toEqual({ payments: ["delete"], welcome: ["delete"] });
    // Retained: the service has no delete.
    expect(suite.emulator.endpoints().some((recorded) => recorded.id === id)).toBe(true);
    expect(suite.emulator.batches()).toHaveLength(1);
  });

  const host = languageHost("python");
  process.stderr.write(`examples/python ran inline${host ? ` and with ${host}` : " only: no pulumi-language-python on PATH"}\n`);
  (host ? test : test.skip)(`ran with the language host (plain pulumi up; ${host ?? "no pulumi-language-python on PATH"})`, async () => {
    const stack = await suite.stack("examples/python", { config: { receiverUrl: "https://hooks.example.com/python-host" } });
    // The project's virtualenv (Pulumi.yaml: `virtualenv: venv`) is this run's, with the SDK.
    fs.symlinkSync(path.dirname(path.dirname(pythonExecutable())), path.join(stack.projectDir, "venv"));
    await stack.cli(["plugin", "install", "resource", "messaging", plugin.version, "--file", plugin.archive]);
    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ payments: ["create"], welcome: ["create"] });
    expect(suite.emulator.endpoints().map((endpoint) => endpoint.url)).toContain("https://hooks.example.com/python-host");
    expect(up.outputs?.signingSecret?.secret).toBe(true);
    expectOk(await stack.destroy());
  });
});
