/**
 * The plugin on the darwin executables' runtime, Bun 1.4.4, run here: the same bundle compiled by
 * Bun for linux-x64 (scripts/release/plugin/bun-runtime.ts), installed from its archive, deployed
 * by the real CLI as examples/yaml (preview, up, an unchanged up, refresh, destroy) with no `node`
 * on PATH. The darwin executables embed this very module (test/release/plugin-binaries.test.ts);
 * they themselves cannot run here.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packPlugin } from "../../scripts/release/pack-plugin";
import { exampleLifecycle } from "../languages/example-lifecycle";
import { describeRealEngine, useRealEngine } from "../support/real-engine";

describeRealEngine("examples/yaml on the Bun build of the plugin (linux-x64)", () => {
  const suite = useRealEngine("sk_test_bun_runtime_0e5b");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-bun-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("installed from its archive, with no node on PATH: preview, up, an unchanged up, refresh, destroy", async () => {
    const bun = await packPlugin(path.join(scratch, "out"), ["linux-amd64"], { runtimes: { "linux-amd64": "bun" } });
    const manifest = JSON.parse(fs.readFileSync(path.join(bun.directory, "package.json"), "utf8"));
    expect(manifest.pulumiPlugin).toEqual({ platform: "linux-amd64", standalone: true, bun: "1.4.4" });
    const noNode = fs.mkdtempSync(path.join(scratch, "path-"));
    const stack = await suite.stack("examples/yaml", {
      config: { receiverUrl: "https://hooks.example.com/bun" },
      env: { PATH: `${process.env.PULUMI_MESSAGING_CLI_DIR}${path.delimiter}${noNode}` },
    });
    await stack.cli(["plugin", "install", "resource", "messaging", bun.version, "--file", bun.archive]);
    await exampleLifecycle(suite, stack, "https://hooks.example.com/bun");
    // The plugin that ran is the Bun executable, as the engine's plugin directory shows.
    const installed = path.join(stack.stateDir, "home", "plugins", `resource-messaging-v${bun.version}`, "package.json");
    expect(JSON.parse(fs.readFileSync(installed, "utf8")).pulumiPlugin.bun).toBe("1.4.4");
  });
});
