/**
 * A stack of a Pulumi project, driven by the real `pulumi` CLI: the tests' one way to run the
 * engine (test/support/real-engine.ts is its only user).
 *
 * Each stack has its own file backend, `PULUMI_HOME` and passphrase in a temporary directory,
 * and runs offline (no update check, no plugin download, no registry), as Pulumi's own provider
 * tests do. Program operations (`preview`, `up`, `refresh`, `destroy`) run in a child process
 * (inline-program.ts); the rest are plain CLI commands. Everything is asynchronous, so an
 * emulator served by the calling process keeps answering while `pulumi` runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot } from "../../../scripts/release/plugin/node-runtime";
import { EngineReport } from "./engine-events";
import type { InlineRequest, InlineResult } from "./inline-program";

/**
 * The inline runner, transpiled from its source (with the one module it imports), so a test never runs a stale build of it.
 * Written once per source into the tools' cache, by its hash: every test file and every run reuses it, and no temporary
 * directory is left behind by a jest worker that is killed rather than exited.
 */
let inlineProgram: string | undefined;
export function inlineProgramFile(): string {
  if (inlineProgram !== undefined && fs.existsSync(inlineProgram)) return inlineProgram;
  const ts = require("typescript") as typeof import("typescript");
  const outputs = ["inline-program", "engine-events"].map((name) => ({
    name,
    text: ts.transpileModule(fs.readFileSync(path.join(__dirname, `${name}.ts`), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText,
  }));
  const parent = path.join(cacheRoot(), "harness");
  const dir = path.join(parent, createHash("sha256").update(JSON.stringify(outputs)).digest("hex").slice(0, 16));
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(parent, { recursive: true });
    // Written aside and renamed into place: another jest worker may be writing the same files.
    const staging = fs.mkdtempSync(`${dir}.staging-`);
    for (const { name, text } of outputs) fs.writeFileSync(path.join(staging, `${name}.js`), text);
    try {
      fs.renameSync(staging, dir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  return (inlineProgram = path.join(dir, "inline-program.js"));
}

/** What a CLI command printed, and how it ended. */
export interface CommandOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A program operation's outcome: the CLI's own output, its summary, and the outputs after `up`. */
export interface OperationResult extends InlineResult {
  /** What `pulumi` printed (secrets shown as `[secret]`, as it prints them). */
  readonly text: string;
}

/** A deployment as `pulumi stack export` writes it (only what the tests read is typed). */
export interface ExportedState {
  readonly version: number;
  readonly deployment: {
    readonly resources?: Array<Record<string, unknown>>;
    readonly pending_operations?: Array<{ resource: Record<string, unknown>; type: string }>;
  };
}

/** A program operation still running: `done` settles when its process ends, however it ends. */
export interface RunningOperation {
  readonly process: ChildProcess;
  readonly done: Promise<OperationResult>;
  /** Kills every process of the operation at once (SIGKILL): the runner, `pulumi` and its plugins. */
  kill(): void;
}

export interface StackOptions {
  /** The project directory (Pulumi.yaml, program, node_modules). */
  readonly projectDir: string;
  /** The directory holding `pulumi` (test/find-pulumi-cli.js finds it). */
  readonly cliDir: string;
  readonly stackName?: string;
  /** Variables for every command: `MESSAGING_*` here reach the provider. Others from this process are not passed. */
  readonly env?: Record<string, string>;
  /** Where the backend, PULUMI_HOME and scratch files go; a new temporary directory by default. */
  readonly stateDir?: string;
  /**
   * The command that runs one operation as an Automation API inline program, given the request
   * file (`InlineRequest`) and writing its `InlineResult`: for a program in another language
   * (test/languages). By default a Node.js project runs through inline-program.ts and any other
   * runtime through its language host.
   */
  readonly inlineRunner?: (requestFile: string) => readonly [string, ...string[]];
}

/** The variable that marks every process of one operation (see `spawnGroup`). */
const RUN_MARKER = "PULUMI_MESSAGING_RUN";

/**
 * Kills, with SIGKILL, every process whose environment holds `marker` (Linux: /proc), until
 * none is left: a process that starts another while being killed is caught on the next pass.
 */
function killMarked(marker: string): void {
  if (!marker) return;
  for (let pass = 0; pass < 10; pass++) {
    const found = fs.readdirSync("/proc").filter((entry) => {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return false;
      try {
        return fs.readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(marker);
      } catch {
        return false; // ended meanwhile, or not ours to read
      }
    });
    if (found.length === 0) return;
    for (const pid of found) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // Already ended.
      }
    }
  }
}

/** Variables of this process that must not reach the stack unless a test sets them. */
const WITHHELD = /^(MESSAGING_|PULUMI_)/;

/** What the stacks of this process ran, for the tier's report: program operations, and every `pulumi` process. */
export const pulumiCounts = { operations: 0 };

export class PulumiStack {
  readonly projectDir: string;
  stackName: string;
  readonly stateDir: string;
  private readonly cliDir: string;
  private env: Record<string, string>;
  private scratch = 0;
  private readonly markers = new Map<ChildProcess, string>();
  private projectRuntime: string | undefined;
  private readonly inlineRunner: StackOptions["inlineRunner"];

  private constructor(options: StackOptions, stateDir: string) {
    this.projectDir = options.projectDir;
    this.cliDir = options.cliDir;
    this.stackName = options.stackName ?? "dev";
    this.stateDir = stateDir;
    this.inlineRunner = options.inlineRunner;
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !WITHHELD.test(entry[0])),
    );
    this.env = {
      ...inherited,
      // No node_modules/.bin (npm puts this repository's on PATH): the engine would take the
      // repository's pulumi-resource-messaging from there over the plugin a test installed.
      PATH: [
        options.cliDir,
        ...(process.env.PATH ?? "").split(path.delimiter).filter((dir) => !dir.endsWith(`node_modules${path.sep}.bin`)),
      ].join(path.delimiter),
      PULUMI_HOME: path.join(stateDir, "home"),
      // `metadata=skip`: the file backend's storage library (gocloud's fileblob) writes each state file's `.attrs` sidecar in
      // place, not by rename. A kill during that write (the kill tests make many) leaves it empty, and every later
      // command then fails "failed to load checkpoint: EOF": the CLI's storage, not this package. The sidecar holds
      // nothing Pulumi reads.
      PULUMI_BACKEND_URL: `file://${path.join(stateDir, "backend")}?metadata=skip`,
      PULUMI_CONFIG_PASSPHRASE: "pulumi-messaging-tests",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      ...options.env,
    };
  }

  /** Creates the stack (`pulumi stack init`) in a backend of its own. */
  static async create(options: StackOptions): Promise<PulumiStack> {
    const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-stack-"));
    for (const dir of ["home", "backend", "scratch"]) fs.mkdirSync(path.join(stateDir, dir), { recursive: true });
    const stack = new PulumiStack(options, stateDir);
    await stack.cli(["stack", "init", stack.stackName]);
    return stack;
  }

  /** Runs `pulumi <args>` in the project; fails unless it exits 0 (or `allowFailure`). */
  async cli(args: readonly string[], options: { allowFailure?: boolean; input?: string } = {}): Promise<CommandOutput> {
    const child = spawn(path.join(this.cliDir, "pulumi"), [...args, "--non-interactive"], {
      cwd: this.projectDir,
      env: this.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const output = await collect(child);
    if (output.code !== 0 && !options.allowFailure) {
      throw new Error(`pulumi ${args.join(" ")} exited ${output.code}:\n${output.stdout}\n${output.stderr}`);
    }
    return output;
  }

  /** Sets (or, with `undefined`, removes) variables of every later command. */
  setEnv(variables: Record<string, string | undefined>): void {
    const env = { ...this.env };
    for (const [name, value] of Object.entries(variables)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    this.env = env;
  }

  /** `pulumi config set [--secret] key value` (the value through stdin, never in argv). */
  async setConfig(key: string, value: string, options: { secret?: boolean } = {}): Promise<void> {
    await this.cli(["config", "set", ...(options.secret ? ["--secret"] : ["--plaintext"]), key], { input: value });
  }

  /** Plain (not secret) values, in one `pulumi config set-all` (each command costs a CLI start). */
  async setPlainConfig(values: Record<string, string>): Promise<void> {
    const pairs = Object.entries(values).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]);
    if (pairs.length > 0) await this.cli(["config", "set-all", ...pairs]);
  }

  /** An object value, stored as JSON (what `Config.requireObject` reads). */
  async setConfigObject(key: string, value: unknown): Promise<void> {
    await this.setConfig(key, JSON.stringify(value));
  }

  async removeConfig(key: string): Promise<void> {
    await this.cli(["config", "rm", key]);
  }

  /** `pulumi stack rename`: the state and the config file follow, and every later operation runs under the new name. */
  async rename(newName: string): Promise<void> {
    await this.cli(["stack", "rename", newName]);
    this.stackName = newName;
  }

  /** Replaces the project's Pulumi.yaml (another program, maybe in another runtime), the stack, state and config kept. */
  useProgram(pulumiYaml: string): void {
    fs.writeFileSync(path.join(this.projectDir, "Pulumi.yaml"), pulumiYaml);
    this.projectRuntime = undefined;
  }

  preview(options: InlineRequest["options"] = {}): Promise<OperationResult> {
    return this.start("preview", options).done;
  }

  up(options: InlineRequest["options"] = {}): Promise<OperationResult> {
    return this.start("up", options).done;
  }

  refresh(options: InlineRequest["options"] = {}): Promise<OperationResult> {
    return this.start("refresh", options).done;
  }

  destroy(options: InlineRequest["options"] = {}): Promise<OperationResult> {
    return this.start("destroy", options).done;
  }

  /**
   * Starts a program operation without waiting for it (to kill it part-way, say). A Node.js
   * program runs inline (inline-program.ts); any other runtime through its language host, with
   * `pulumi <op>` itself.
   */
  start(op: InlineRequest["op"], options: InlineRequest["options"] = {}): RunningOperation {
    return this.inlineRunner || this.runtime === "nodejs" ? this.startInline(op, options) : this.startCommand(op, options);
  }

  /** The project's runtime, from its Pulumi.yaml. */
  get runtime(): string {
    this.projectRuntime ??=
      /^runtime:[ \t]*(?:\n[ \t]+name:[ \t]*)?(\w+)/m.exec(fs.readFileSync(path.join(this.projectDir, "Pulumi.yaml"), "utf8"))?.[1] ?? "";
    return this.projectRuntime;
  }

  private startInline(op: InlineRequest["op"], options: InlineRequest["options"]): RunningOperation {
    pulumiCounts.operations++;
    const id = ++this.scratch;
    const resultFile = path.join(this.stateDir, "scratch", `${op}-${id}.result.json`);
    const requestFile = path.join(this.stateDir, "scratch", `${op}-${id}.request.json`);
    const request: InlineRequest = {
      op,
      workDir: this.projectDir,
      stackName: this.stackName,
      cliRoot: path.dirname(this.cliDir),
      env: this.env,
      options,
      resultFile,
    };
    fs.writeFileSync(requestFile, JSON.stringify(request));
    const [command, ...args] = this.inlineRunner?.(requestFile) ?? [process.execPath, inlineProgramFile(), requestFile];
    const child = this.spawnGroup(command, args);
    const done = collect(child).then((output): OperationResult => {
      const text = output.stdout + output.stderr;
      if (!fs.existsSync(resultFile)) {
        return { ok: false, error: `pulumi ${op} did not finish (${output.code ?? "killed"})`, text, steps: [], diagnostics: [] };
      }
      return { ...(JSON.parse(fs.readFileSync(resultFile, "utf8")) as InlineResult), text };
    });
    return this.running(child, done);
  }

  private startCommand(op: InlineRequest["op"], options: InlineRequest["options"]): RunningOperation {
    pulumiCounts.operations++;
    const eventLog = path.join(this.stateDir, "scratch", `${op}-${++this.scratch}.events.jsonl`);
    const args = [
      op,
      "--non-interactive",
      "--color=never",
      `--event-log=${eventLog}`,
      ...(op === "preview" ? [] : ["--yes", "--skip-preview"]),
      ...(options.expectNoChanges ? ["--expect-no-changes"] : []),
      ...(options.refresh ? ["--refresh"] : []),
      ...(options.clearPendingCreates ? ["--clear-pending-creates"] : []),
      ...(options.diff ? ["--diff"] : []),
    ];
    // `--event-log`, which the Automation API uses too, is offered with PULUMI_DEBUG_COMMANDS.
    const child = this.spawnGroup(path.join(this.cliDir, "pulumi"), args, { PULUMI_DEBUG_COMMANDS: "true" });
    const done = collect(child).then(async (output): Promise<OperationResult> => {
      const report = new EngineReport();
      if (fs.existsSync(eventLog)) report.addLog(fs.readFileSync(eventLog, "utf8"));
      const text = output.stdout + output.stderr;
      const base = { text, steps: report.steps, diagnostics: report.diagnostics };
      if (output.code !== 0) return { ...base, ok: false, error: `pulumi ${op} failed (${output.code ?? "killed"})` };
      return { ...base, ok: true, ...(op === "up" ? { outputs: await this.outputsWithSecrets() } : {}) };
    });
    return this.running(child, done);
  }

  /**
   * Starts an operation's process, marked so that a kill finds every process it started: the
   * CLI starts each plugin in a process group of its own, and a plugin whose CLI was killed
   * lives on (reparented), so neither the process tree nor the group reaches them all.
   */
  private spawnGroup(command: string, args: readonly string[], env: Record<string, string> = {}): ChildProcess {
    const marker = `${RUN_MARKER}=${process.pid}-${++this.scratch}`;
    const [name, value] = marker.split("=");
    const child = spawn(command, args, {
      cwd: this.projectDir,
      env: { ...this.env, ...env, [name]: value },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.markers.set(child, marker);
    return child;
  }

  private running(child: ChildProcess, done: Promise<OperationResult>): RunningOperation {
    return {
      process: child,
      done,
      // SIGKILL to every process of the run at once: what a cancelled CI job or a dead machine does.
      kill: () => killMarked(this.markers.get(child) ?? ""),
    };
  }

  /** The stack's outputs, each with whether it is a secret (`stack output --json` shows those as "[secret]"). */
  private async outputsWithSecrets(): Promise<Record<string, { value: unknown; secret: boolean }>> {
    const masked = JSON.parse((await this.cli(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    const shown = await this.outputs();
    return Object.fromEntries(Object.entries(shown).map(([name, value]) => [name, { value, secret: masked[name] === "[secret]" }]));
  }

  /**
   * `pulumi stack export`: the deployment as the backend stores it, secrets encrypted (each
   * checkpoint encrypts anew), or with `showSecrets` their plain values.
   */
  async exportState(options: { showSecrets?: boolean } = {}): Promise<ExportedState> {
    return JSON.parse((await this.cli(["stack", "export", ...(options.showSecrets ? ["--show-secrets"] : [])])).stdout);
  }

  /** `pulumi stack import --file` of a deployment (as `exportState` gives it). */
  async importState(state: unknown): Promise<void> {
    const file = path.join(this.stateDir, "scratch", `import-${++this.scratch}.json`);
    fs.writeFileSync(file, JSON.stringify(state));
    await this.cli(["stack", "import", "--file", file]);
  }

  /** `pulumi stack output --json --show-secrets`. */
  async outputs(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.cli(["stack", "output", "--json", "--show-secrets"])).stdout);
  }

  /** Removes the stack's backend and home. */
  dispose(): void {
    fs.rmSync(this.stateDir, { recursive: true, force: true });
  }
}

function collect(child: ChildProcess): Promise<CommandOutput> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
