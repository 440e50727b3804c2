/**
 * The README's TypeScript and YAML quick starts, from an empty folder, under the real `pulumi`
 * against the emulator: the README's own program blocks, the stack made with `pulumi stack
 * init`, the two `pulumi config set` lines, `pulumi up`, and the signing secret read back with
 * `pulumi stack output --show-secrets`.
 *
 * What a test here cannot do: `pulumi new typescript` fetches its template from GitHub
 * (unreachable here), so the TypeScript folder holds what that template writes; and there is
 * no Node.js language host here, so the program runs as an inline program
 * (test/support/harness/inline-program.ts), as every TypeScript program of the tests does.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { PluginArchive } from "../../scripts/release/pack-plugin";
import { pluginArchive } from "../support/plugin-archive";
import { REPO_ROOT } from "../support/environment";
import { describeRealEngine, expectOk, opsByName, useRealEngine } from "../support/real-engine";

const API_KEY = "sk_test_readme_quick_starts_9d2c";
const README = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

/** The first fenced block of `language` after the heading or marker `after`. */
function readmeBlock(after: string, language: string): string {
  const at = README.indexOf(after);
  const block = at < 0 ? undefined : new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "m").exec(README.slice(at))?.[1];
  if (block === undefined) throw new Error(`README.md has no ${language} block after ${after}`);
  return block;
}

/** What `pulumi new typescript --yes` writes in a folder named payments-hooks, but index.ts. */
const PULUMI_NEW_TYPESCRIPT = {
  "Pulumi.yaml":
    "name: payments-hooks\ndescription: A minimal TypeScript Pulumi program\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n",
  "package.json": JSON.stringify({
    name: "payments-hooks",
    main: "index.ts",
    devDependencies: { "@types/node": "^18", typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": "^3.113.0" },
  }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, outDir: "bin", target: "es2020", module: "commonjs", moduleResolution: "node", sourceMap: true },
    files: ["index.ts"],
  }),
};

describeRealEngine("the README's quick starts, from an empty folder", () => {
  const suite = useRealEngine(API_KEY);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-quick-starts-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  /** A folder holding `files` only. */
  function folder(name: string, files: Record<string, string>): string {
    const dir = path.join(scratch, name);
    fs.mkdirSync(dir);
    for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), content);
    return dir;
  }

  test("TypeScript: the README's index.ts, config set, up; the secret read back is the endpoint's", async () => {
    const program = readmeBlock("### TypeScript", "ts");
    const stack = await suite.stack(folder("payments-hooks", { ...PULUMI_NEW_TYPESCRIPT, "index.ts": program }));
    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ payments: ["create"] });
    const [endpoint] = suite.emulator.endpoints();
    expect(endpoint).toMatchObject({ url: "https://receiver.example.com/webhooks/payments", events: ["payment.succeeded"] });
    expect(up.outputs?.paymentsEndpointId).toEqual({ value: endpoint.id, secret: false });
    const shown = await stack.cli(["stack", "output", "paymentsSigningSecret", "--show-secrets"]);
    expect(shown.stdout.trim()).toBe(endpoint.secret);
  });

  describe("YAML", () => {
    const archives = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-quick-start-plugin-"));
    let plugin: PluginArchive;
    beforeAll(async () => {
      plugin = await pluginArchive(archives);
    });
    afterAll(() => fs.rmSync(archives, { recursive: true, force: true }));

    test("the README's Pulumi.yaml, plugin install, stack init, config set, up", async () => {
      const before = suite.emulator.endpoints().length;
      const stack = await suite.stack(
        folder("payments-yaml", { "Pulumi.yaml": readmeBlock("<!-- docs-test: yaml quick start -->", "yaml") }),
      );
      await stack.cli(["plugin", "install", "resource", "messaging", plugin.version, "--file", plugin.archive]);
      const up = expectOk(await stack.up());
      expect(opsByName(up)).toEqual({ payments: ["create"] });
      const endpoint = suite.emulator.endpoints()[before];
      expect(endpoint).toMatchObject({
        url: "https://receiver.example.com/webhooks/payments",
        description: "Payment notifications for the billing service",
      });
      expect(up.outputs?.paymentsSigningSecret).toEqual({ value: endpoint.secret, secret: true });
    });
  });
});
