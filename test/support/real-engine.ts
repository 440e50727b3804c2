/**
 * The real-engine tier's setup: the package as users install it (the `npm pack` tarball) in a
 * copy of a fixture project, stacks driven by the real `pulumi` CLI (test/support/harness/stack.ts),
 * and an emulator, for the whole test file; all closed after its last test, passed or not.
 *
 * The CLI comes from test/find-pulumi-cli.js (`npm run pulumi:path`). Outside CI a machine without
 * Go and without a CLI skips this tier, saying why; in CI that is a failure.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { createPackedProject, packPackage } from "./harness/packed-project";
import { REPO_ROOT } from "../../scripts/repo-root";
import { pluginArchive, type RunPluginArchive } from "./plugin-archive";
import type { EngineStep } from "./harness/engine-events";
import type { InlineResult } from "./harness/inline-program";
import { PulumiStack, pulumiCounts, type ExportedState, type OperationResult, type StackOptions } from "./harness/stack";

export type { PulumiStack, OperationResult, RunningOperation, ExportedState } from "./harness/stack";

/** The directory holding `pulumi`, set by test/find-pulumi-cli.js. */
const CLI_DIR_VARIABLE = "PULUMI_MESSAGING_CLI_DIR";
import { SECRET_SIG } from "./secrets";

/** Why the tier cannot run here, if it cannot (set by test/find-pulumi-cli.js). */
export const SKIP_REASON_VARIABLE = "PULUMI_MESSAGING_REAL_ENGINE_SKIP";

/** Where each test file adds what it ran (set by test/find-pulumi-cli.js). */
export const COUNTS_FILE_VARIABLE = "PULUMI_MESSAGING_COUNTS_FILE";

/** `describe`, or `describe.skip` with the reason printed when no CLI could be had outside CI. */
export const describeRealEngine: jest.Describe = (() => {
  const reason = process.env[SKIP_REASON_VARIABLE];
  if (!reason) return describe;
  process.stderr.write(`real-engine tier skipped: ${reason}\n`);
  return describe.skip;
})();

/** The inputs `test/fixtures/endpoint-stack` reads from its `endpoint` config by default. */
export const ENDPOINT = { url: "https://hooks.example.com/payments", events: ["payment.succeeded"], description: "billing" };

export interface RealEngineSuite {
  readonly apiKey: string;
  readonly emulator: Emulator;
  /**
   * A new stack of a new copy of `test/fixtures/<fixture>` (or, for a path with a slash, of that
   * directory of the repository: `examples/yaml`; an absolute path as it is), with `config` set (secret where asked).
   */
  stack(fixture: string, options?: StackSetup): Promise<PulumiStack>;
  /** A new copy of a directory of the repository (`examples/automation`) with the packed package installed. */
  project(dir: string): string;
  /** `messaging:apiKey` (secret) and `messaging:baseUrl` for this suite's emulator. */
  serviceConfig(baseUrl?: string): ConfigEntries;
  /** The provider plugin's archive, as `npm run plugin:pack` makes it (support/plugin-archive.ts). */
  pluginArchive(): Promise<RunPluginArchive>;
}

export type ConfigEntries = Record<string, string | { value: string; secret: true }>;

export interface StackSetup {
  /** Config to set; `messaging:*` for the emulator is added unless `service: false`. */
  readonly config?: ConfigEntries;
  readonly service?: boolean;
  /** Environment for every command (MESSAGING_* of the test process never reach it otherwise). */
  readonly env?: Record<string, string>;
  /** Another stack's project directory to use instead of a new copy. */
  readonly projectDir?: string;
  /** Install the provider plugin from its packed archive (`pulumi plugin install --file`), as users of other languages do. */
  readonly plugin?: boolean;
  /** The stack's name (default `s<N>`, one per stack of the file); every stack has a backend of its own. */
  readonly stackName?: string;
  /** How a program in another language runs each operation (see `StackOptions.inlineRunner`). */
  readonly inlineRunner?: StackOptions["inlineRunner"];
}

/** The directory holding the real `pulumi` (test/find-pulumi-cli.js found it). */
export function pulumiCliDir(): string {
  const cliDir = process.env[CLI_DIR_VARIABLE];
  if (!cliDir) throw new Error(`${CLI_DIR_VARIABLE} is not set: test/find-pulumi-cli.js finds the CLI`);
  return cliDir;
}

/** Counts a `pulumi` operation run outside a `PulumiStack` (a user's Automation API script), for the tier's report. */
export function countOperation(): void {
  pulumiCounts.operations++;
}

/** Registers the file's beforeAll/afterAll; the fields are ready inside tests. */
export function useRealEngine(apiKey: string): RealEngineSuite {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-real-"));
  const stacks: PulumiStack[] = [];
  let tarball = "";
  let plugin: Promise<RunPluginArchive> | undefined;
  const suite = {
    apiKey,
    serviceConfig: (baseUrl?: string): ConfigEntries => ({
      "messaging:apiKey": { value: apiKey, secret: true },
      "messaging:baseUrl": baseUrl ?? suite.emulator.url,
    }),
    pluginArchive: () => (plugin ??= pluginArchive(path.join(root, "plugin-archive"))),
    project(dir: string): string {
      tarball ||= packPackage(root);
      return createPackedProject(path.join(REPO_ROOT, dir), { tarball, parentDir: root });
    },
    async stack(fixture: string, setup: StackSetup = {}): Promise<PulumiStack> {
      tarball ||= packPackage(root);
      const projectDir =
        setup.projectDir ??
        createPackedProject(
          path.isAbsolute(fixture) ? fixture : path.join(REPO_ROOT, ...(fixture.includes("/") ? [fixture] : ["test", "fixtures", fixture])),
          {
            tarball,
            parentDir: root,
          },
        );
      const stack = await PulumiStack.create({
        projectDir,
        cliDir: pulumiCliDir(),
        env: setup.env ?? {},
        stackName: setup.stackName ?? `s${stacks.length + 1}`,
        inlineRunner: setup.inlineRunner,
      });
      stacks.push(stack);
      if (setup.plugin) {
        const { version, archive, installedPlugins } = await suite.pluginArchive();
        // A copy of what `pulumi plugin install --file` made once for the run, else that install here.
        if (installedPlugins) fs.cpSync(installedPlugins, path.join(stack.stateDir, "home", "plugins"), { recursive: true });
        else await stack.cli(["plugin", "install", "resource", "messaging", version, "--file", archive]);
      }
      const config = { ...(setup.service === false ? {} : suite.serviceConfig()), ...setup.config };
      const entries = Object.entries(config);
      await stack.setPlainConfig(Object.fromEntries(entries.filter((entry): entry is [string, string] => typeof entry[1] === "string")));
      for (const [key, entry] of entries) if (typeof entry !== "string") await stack.setConfig(key, entry.value, { secret: true });
      return stack;
    },
  } as RealEngineSuite & { emulator: Emulator };
  beforeAll(async () => {
    suite.emulator = await startEmulator({ apiKey });
  });
  afterAll(async () => {
    await suite.emulator?.close();
    for (const stack of stacks) stack.dispose();
    fs.rmSync(root, { recursive: true, force: true });
    // For the tier's report (test/report-pulumi-counts.js): one line a test file.
    const counts = process.env[COUNTS_FILE_VARIABLE];
    if (counts) fs.appendFileSync(counts, `${JSON.stringify({ file: expect.getState().testPath, ...pulumiCounts })}\n`);
  });
  return suite;
}

/**
 * Starts `up` and kills every process of it (SIGKILL) as soon as the emulator holds more
 * batches than `from`: polled, since the call arrives in this process's emulator. An `up` that
 * ends first (failing before sending, or sending everything) fails the test with its output.
 * Resolves to the killed operation's result.
 */
export async function upKilledAfterFirstCall(stack: PulumiStack, emulator: Emulator, from: number): Promise<OperationResult> {
  const run = stack.start("up");
  let ended = false;
  const finished = run.done.finally(() => (ended = true));
  while (!ended && emulator.batches().length === from) await new Promise((resolve) => setTimeout(resolve, 2));
  if (ended) throw new Error(`up ended before the service took a call, so it could not be killed there:\n${(await finished).text}`);
  run.kill();
  return finished;
}

/** Throws with what `pulumi` printed when an operation failed unexpectedly. */
export function expectOk(result: OperationResult): OperationResult {
  if (!result.ok) throw new Error(`pulumi failed (${result.error}):\n${result.text}`);
  return result;
}

/** The steps on the package's resources (the CLI also reports the stack's and the providers'). */
export function resourceSteps(result: InlineResult): EngineStep[] {
  // The stack's identity (provider/stack-identity.ts) is left out: it is the package's, not the program's.
  return result.steps.filter(
    (step) => /^(pulumi-nodejs:dynamic|messaging:index:)/.test(step.type) && !step.type.endsWith(":StackIdentity"),
  );
}

/** The op of each of the package's resources, by name, in the order the engine reported them: `{ main: ["create"] }`. */
export function opsByName(result: InlineResult): Record<string, string[]> {
  const ops: Record<string, string[]> = {};
  for (const step of resourceSteps(result)) (ops[step.name] ??= []).push(step.op);
  return ops;
}

/** Every error the engine, the program or a provider reported, as one text. */
export function errorsOf(result: InlineResult): string {
  return result.diagnostics
    .filter((diagnostic) => diagnostic.severity === "error")
    .map((diagnostic) => diagnostic.message)
    .join("\n");
}

/** What providers and programs printed as info or warning (a provider's stderr arrives as info), debug output left out. */
export function messagesOf(result: InlineResult): string {
  return result.diagnostics
    .filter((diagnostic) => /^(info|warning)/.test(diagnostic.severity))
    .map((diagnostic) => diagnostic.message)
    .join("\n");
}

/** A stack output's value (secret or not). */
export function output(result: InlineResult, name: string): unknown {
  return result.outputs?.[name]?.value;
}

/** The resources of an exported deployment that are the package's, by name. */
export function resourcesNamed(deployment: ExportedState, name: string): Array<Record<string, unknown>> {
  return (deployment.deployment.resources ?? []).filter(
    (resource) => String(resource.urn).endsWith(`::${name}`) && /^(pulumi-nodejs:dynamic|messaging:index:)/.test(String(resource.type)),
  );
}

/** A value of `pulumi stack export --show-secrets`: a secret there is `{ <sig>, plaintext: <JSON> }`. */
export function revealed(value: unknown): unknown {
  if (typeof value === "object" && value !== null && "plaintext" in value) return JSON.parse(String(value.plaintext));
  return value;
}

/** A secret as `pulumi stack import` takes it in a deployment exported with `--show-secrets`. */
export function revealedSecret(value: unknown): Record<string, unknown> {
  return { [SECRET_SIG.key]: SECRET_SIG.value, plaintext: JSON.stringify(value) };
}

/**
 * Rewrites the one package resource named `name` in the stack's state, as an earlier run or an
 * earlier release left it: `pulumi stack export --show-secrets`, the edit, `pulumi stack import`.
 */
export async function editResource(
  stack: PulumiStack,
  name: string,
  edit: (resource: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  const state = await stack.exportState({ showSecrets: true });
  const [target] = resourcesNamed(state, name);
  if (!target) throw new Error(`no resource named ${name} in the state`);
  const resources = (state.deployment.resources ?? []).map((resource) => (resource === target ? edit(resource) : resource));
  await stack.importState({ ...state, deployment: { ...state.deployment, resources } });
}

/** `props` without `keys`. */
export function without(props: unknown, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props as Record<string, unknown>).filter(([key]) => !keys.includes(key)));
}
