/**
 * examples/python, deployed through the real `pulumi` CLI with the provider plugin installed
 * from its packed archive: the example's `__main__.py`, unchanged, importing the generated SDK
 * (sdk/python, pip-installed into a venv with `pulumi` from PyPI). It runs as an Automation API
 * inline program (test/languages/python/inline_program.py): the Python language host cannot be
 * built here. preview, up, an unchanged up, refresh and destroy in one stack. Where a CLI with
 * `pulumi-language-python` is on PATH, the example also runs with plain `pulumi up` in its folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expectOk, opsByName, useRealEngine } from "../support/real-engine";
import { exampleLifecycle } from "./example-lifecycle";
import { describeLanguage, languageHost, pythonExecutable } from "./toolchains";

const API_KEY = "sk_test_real_python_5c1a";
const DRIVER = path.join(__dirname, "python", "inline_program.py");

describeLanguage("python")("examples/python through the generated SDK (Automation API inline program)", () => {
  const suite = useRealEngine(API_KEY);

  test("ran inline: preview with no service call, up, an unchanged up with no call, refresh, destroy; the secret stays secret, the batch goes out once", async () => {
    const stack = await suite.stack("examples/python", {
      plugin: true,
      config: { receiverUrl: "https://hooks.example.com/python" },
      inlineRunner: (request) => [pythonExecutable(), DRIVER, request],
    });

    await exampleLifecycle(suite, stack, "https://hooks.example.com/python");
  });

  const host = languageHost("python");
  process.stderr.write(`examples/python ran inline${host ? ` and with ${host}` : " only: no pulumi-language-python on PATH"}\n`);
  (host ? test : test.skip)(`ran with the language host (plain pulumi up; ${host ?? "no pulumi-language-python on PATH"})`, async () => {
    const stack = await suite.stack("examples/python", {
      plugin: true,
      config: { receiverUrl: "https://hooks.example.com/python-host" },
    });
    // The project's virtualenv (Pulumi.yaml: `virtualenv: venv`) is this run's, with the SDK.
    fs.symlinkSync(path.dirname(path.dirname(pythonExecutable())), path.join(stack.projectDir, "venv"));
    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ payments: ["create"], welcome: ["create"] });
    expect(suite.emulator.endpoints().map((endpoint) => endpoint.url)).toContain("https://hooks.example.com/python-host");
    expect(up.outputs?.signingSecret?.secret).toBe(true);
    expectOk(await stack.destroy());
  });
});
