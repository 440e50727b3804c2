/**
 * examples/typescript-sdk, deployed through the real `pulumi` CLI with the provider plugin
 * installed from its packed archive: a TypeScript program using the generated nodejs SDK
 * (sdk/nodejs, compiled strict, as `npm run sdk:pack` packs it) instead of the package's dynamic
 * resources. It runs as an Automation API inline program (test/support/harness/inline-program.ts): the
 * Node.js language host cannot be built here. Type-checked, then preview, up, an unchanged up,
 * refresh and destroy in one stack.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";
import { useRealEngine } from "../support/real-engine";
import { compileNodejsSdk } from "./nodejs-sdk";
import { exampleLifecycle } from "./example-lifecycle";
import { describeLanguage, nodeSdkDependencies } from "./toolchains";

const API_KEY = "sk_test_real_tssdk_3b7e";

/** A copy of the example whose node_modules hold the compiled SDK, the @pulumi/pulumi it requires, and TypeScript. */
function exampleProject(parent: string, sdkPackage: string): string {
  const dir = fs.mkdtempSync(path.join(parent, "messaging-typescript-sdk-"));
  fs.cpSync(path.join(REPO_ROOT, "examples", "typescript-sdk"), dir, { recursive: true });
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(path.join(modules, "@pulumi-messaging"), { recursive: true });
  for (const entry of fs.readdirSync(nodeSdkDependencies())) {
    if (!entry.startsWith(".")) fs.symlinkSync(path.join(nodeSdkDependencies(), entry), path.join(modules, entry), "junction");
  }
  fs.symlinkSync(sdkPackage, path.join(modules, "@pulumi-messaging", "messaging"), "junction");
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "typescript"), path.join(modules, "typescript"), "junction");
  return dir;
}

describeLanguage("nodejs")("examples/typescript-sdk through the generated nodejs SDK (Automation API inline program)", () => {
  const suite = useRealEngine(API_KEY);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-tssdk-"));
  let projectDir: string;
  beforeAll(async () => {
    const sdk = compileNodejsSdk(scratch);
    if (!sdk.ok) throw new Error(`sdk/nodejs does not compile:\n${sdk.diagnostics}`);
    projectDir = exampleProject(scratch, sdk.packageDir);
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("type-checks strict against the SDK", () => {
    const tsc = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", projectDir, "--noEmit"],
      {
        encoding: "utf8",
      },
    );
    expect(tsc.stdout).toBe("");
    expect(tsc.status).toBe(0);
  });

  test("ran inline: preview with no service call, up, an unchanged up with no call, refresh, destroy; the secret stays secret, the batch goes out once", async () => {
    const stack = await suite.stack("examples/typescript-sdk", {
      plugin: true,
      config: { receiverUrl: "https://hooks.example.com/tssdk" },
      projectDir,
    });

    await exampleLifecycle(suite, stack, "https://hooks.example.com/tssdk");
  });
});
