/**
 * Opt-in: where a Pulumi CLI is on PATH, run the example with `pulumi up` for real (local
 * file backend, packed package, emulator). Skipped on machines without one.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { createPackedProject } from "../../engine/packed-project";
import { REPO_ROOT } from "../../engine/repo-root";
import { PackedWorkspace } from "./harness";

const hasCli = spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
const describeWithCli = hasCli ? describe : describe.skip;

describeWithCli("pulumi CLI", () => {
  let workspace: PackedWorkspace;
  let emulator: Emulator;
  let project: string;
  const pulumi = (...args: string[]) =>
    execFileSync("pulumi", args, {
      cwd: project,
      encoding: "utf8",
      env: {
        ...process.env,
        PULUMI_CONFIG_PASSPHRASE: "test-only",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_BACKEND_URL: `file://${workspace.root}`,
      },
    });

  beforeAll(async () => {
    workspace = new PackedWorkspace();
    emulator = await startEmulator();
    project = createPackedProject(path.join(REPO_ROOT, "examples", "webhooks"), { tarball: workspace.tarball, parentDir: workspace.root });
    pulumi("stack", "init", "cli-test");
    pulumi("config", "set", "--secret", "messaging:apiKey", emulator.apiKey);
    pulumi("config", "set", "messaging:baseUrl", emulator.url);
  }, 300_000);

  afterAll(async () => {
    await emulator?.close();
    workspace?.cleanup();
  });

  test("up creates both endpoints, a second run has no changes, destroy retains them", () => {
    pulumi("up", "--yes", "--skip-preview");
    expect(emulator.endpoints()).toHaveLength(2);
    const outputs = JSON.parse(pulumi("stack", "output", "--json"));
    expect(outputs.paymentsEndpointId).toMatch(/^we_/);
    expect(outputs.paymentsSigningSecret).toBe("[secret]");
    const calls = emulator.requestCount();
    pulumi("preview", "--expect-no-changes");
    pulumi("up", "--yes", "--expect-no-changes");
    expect(emulator.requestCount()).toBe(calls);
    expect(pulumi("destroy", "--yes")).toMatch(/retain/i);
    expect(emulator.endpoints()).toHaveLength(2);
  }, 300_000);
});
