/**
 * Shared setup of the engine-level tests: the package as users install it (the `npm pack`
 * tarball), copied fixture projects, and stacks driven through the real SDK and the real
 * dynamic-provider host by the local engine.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createPackedProject, packPackage } from "../../engine/packed-project";
import { LocalStack } from "../../engine/local-engine";
import type { EngineResult } from "../../engine/plan";
import { isSecretWrapper } from "../../engine/secrets";
import { loadState, type ResourceState, type StackState } from "../../engine/state";

const REPO = path.resolve(__dirname, "..", "..");

/** The engine runs compiled code from dist/ (as users get it): `npm test` builds first. */
export function requireBuild(): void {
  for (const file of ["dist/index.js", "dist/provider/runtime.js", "dist/engine/run-program.js"]) {
    if (!fs.existsSync(path.join(REPO, file))) throw new Error(`${file} is missing: run \`npm run build\` (npm test does) first`);
  }
}

/** A scratch directory with the packed tarball, removed by `cleanup()`. */
export class PackedWorkspace {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-engine-test-"));
  readonly tarball: string;
  private stacks = 0;

  constructor() {
    requireBuild();
    this.tarball = packPackage(this.root);
  }

  /** A new copy of `test/fixtures/<name>` with the packed package installed. */
  project(fixture: string): string {
    return createPackedProject(path.join(REPO, "test", "fixtures", fixture), { tarball: this.tarball, parentDir: this.root });
  }

  /**
   * A new stack with its own state file, or, with `continues`, the same stack (name and
   * state) run with other config or from another project directory.
   */
  stack(
    projectDir: string,
    options: { config?: Record<string, string>; secretKeys?: string[]; env?: NodeJS.ProcessEnv; continues?: LocalStack } = {},
  ): LocalStack {
    this.stacks += 1;
    return new LocalStack({
      projectDir,
      stack: options.continues?.stack ?? `test${this.stacks}`,
      stateFile: options.continues?.stateFile ?? path.join(this.root, `state-${this.stacks}.json`),
      config: options.config,
      secretKeys: options.secretKeys ?? ["messaging:apiKey"],
      env: options.env ?? withoutMessagingEnv(),
    });
  }

  cleanup(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** The test process's environment without MESSAGING_* settings, so config alone decides. */
export function withoutMessagingEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("MESSAGING_")) delete env[key];
  return { ...env, ...extra };
}

/** The steps on dynamic resources (the CLI also lists the stack's, components' and the default provider's). */
export function dynamicSteps(result: EngineResult): EngineResult["steps"] {
  return result.steps.filter((step) => step.type.startsWith("pulumi-nodejs:dynamic"));
}

/** The `op` of each dynamic resource's first step, by resource name: `{ main: "create" }`. */
export function opsByName(result: EngineResult): Record<string, string> {
  const ops: Record<string, string> = {};
  for (const step of dynamicSteps(result)) ops[step.name] ??= step.op;
  return ops;
}

/** `[op, id]` of every step on a dynamic resource, in order. */
export function stepsOf(result: EngineResult): Array<[string, string]> {
  return dynamicSteps(result).map((step) => [step.op, step.id]);
}

/** The stack's state with secrets decrypted (the file itself holds them encrypted). */
export function stateOf(stack: LocalStack): StackState {
  return loadState(stack.stateFile);
}

/** The stack's dynamic resources (not the root stack, components or the default provider). */
export function dynamicResources(stack: LocalStack): ResourceState[] {
  return stateOf(stack).resources.filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic"));
}

/** The one dynamic resource named `name`. */
export function resourceNamed(stack: LocalStack, name: string): ResourceState {
  const found = dynamicResources(stack).filter((resource) => resource.name === name);
  if (found.length !== 1) throw new Error(`expected one resource named ${name}, found ${found.length}`);
  return found[0];
}

/** A stack output's plain value, unwrapping a secret. */
export function plain(value: unknown): unknown {
  return isSecretWrapper(value) ? value.value : value;
}

/** Throws with the engine's errors when an operation failed unexpectedly. */
export function expectOk(result: EngineResult): EngineResult {
  if (!result.ok) throw new Error(`${result.operation} failed:\n${result.errors.join("\n")}`);
  return result;
}
