/**
 * examples/go, deployed through the real `pulumi` CLI with the provider plugin installed from
 * its packed archive: the example's own `program` (main.go, unchanged), using the generated SDK
 * (sdk/go), run as an Automation API inline program by a driver built beside it
 * (test/languages/go-example.ts): the Go language host cannot be built here. preview, up, an
 * unchanged up, refresh and destroy in one stack. Where a CLI with `pulumi-language-go` is on
 * PATH, the example also runs with plain `pulumi up` in its folder.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expectOk, opsByName, useRealEngine } from "../support/real-engine";
import { buildGoExample, type GoExample } from "./go-example";
import { exampleLifecycle } from "./example-lifecycle";
import { describeLanguage, languageHost } from "./toolchains";

const API_KEY = "sk_test_real_go_8e2d";

describeLanguage("go")("examples/go through the generated SDK (Automation API inline program)", () => {
  const suite = useRealEngine(API_KEY);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-go-"));
  let example: GoExample;
  beforeAll(async () => {
    example = buildGoExample(scratch);
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("ran inline: preview with no service call, up, an unchanged up with no call, refresh, destroy; the secret stays secret, the batch goes out once", async () => {
    const stack = await suite.stack("examples/go", {
      plugin: true,
      config: { receiverUrl: "https://hooks.example.com/go" },
      projectDir: example.dir,
      inlineRunner: example.runner,
    });

    await exampleLifecycle(suite, stack, "https://hooks.example.com/go");
  });

  const host = languageHost("go");
  process.stderr.write(`examples/go ran inline${host ? ` and with ${host}` : " only: no pulumi-language-go on PATH"}\n`);
  (host ? test : test.skip)(`ran with the language host (plain pulumi up; ${host ?? "no pulumi-language-go on PATH"})`, async () => {
    // The host builds the program itself (main.go calls pulumi.Run); the copy's go.mod points at sdk/go.
    const stack = await suite.stack("examples/go", {
      plugin: true,
      config: { receiverUrl: "https://hooks.example.com/go-host" },
      projectDir: example.dir,
    });
    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ payments: ["create"], welcome: ["create"] });
    expect(suite.emulator.endpoints().map((endpoint) => endpoint.url)).toContain("https://hooks.example.com/go-host");
    expect(up.outputs?.signingSecret?.secret).toBe(true);
    expectOk(await stack.destroy());
  });
});
