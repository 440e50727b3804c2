/** The shipped example runs as a standalone project, and from the repository root. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalStack } from "../../engine/local-engine";
import { REPO_ROOT } from "../../engine/repo-root";
import { isSecretWrapper } from "../../engine/secrets";
import { createPackedProject } from "../../engine/packed-project";
import { useEngineSuite } from "./engine-suite";
import { expectOk, opsByName, withoutMessagingEnv } from "./harness";

const API_KEY = "sk_test_examples_5d1e";

const suite = useEngineSuite(API_KEY);

function expectExampleOutputs(outputs: Record<string, unknown>): void {
  const ids = [outputs.paymentsEndpointId, outputs.identityEndpointId];
  for (const id of ids) expect(id).toMatch(/^we_/);
  for (const name of ["paymentsSigningSecret", "identitySigningSecret"]) {
    const secret = outputs[name];
    expect(isSecretWrapper(secret)).toBe(true);
    const endpoint = suite.emulator.endpoints().find((e) => e.secret === (secret as { value: string }).value);
    expect(ids).toContain(endpoint?.id);
  }
}

test("examples/webhooks deploys both endpoints from the packed package and a second up changes nothing", async () => {
  const project = createPackedProject(path.join(REPO_ROOT, "examples", "webhooks"), {
    tarball: suite.workspace.tarball,
    parentDir: suite.workspace.root,
  });
  const stack = suite.workspace.stack(project, { config: suite.serviceConfig() });
  const up = expectOk(await stack.up());
  expect(opsByName(up)).toEqual({ payments: "create", identity: "create" });
  expectExampleOutputs(up.outputs);
  const identity = suite.emulator.endpoints().find((e) => e.id === up.outputs.identityEndpointId);
  expect(identity).toMatchObject({ format: "cloudEvents", events: ["identity.verification.created"] });
  expect(opsByName(expectOk(await stack.up()))).toEqual({ payments: "same", identity: "same" });
});

test("the root Pulumi.yaml runs the same example", async () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "root-stack-"));
  try {
    const stack = new LocalStack({
      projectDir: REPO_ROOT,
      stateFile: path.join(stateDir, "dev.json"),
      config: suite.serviceConfig(),
      secretKeys: ["messaging:apiKey"],
      env: withoutMessagingEnv(),
    });
    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ payments: "create", identity: "create" });
    expectExampleOutputs(up.outputs);
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});
