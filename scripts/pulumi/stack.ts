/**
 * A stack of a Pulumi project, driven by the real `pulumi` CLI: the tests' and the demo's one way
 * to run the engine.
 *
 * Each stack has its own file backend, `PULUMI_HOME` and passphrase in a temporary directory,
 * and runs offline (no update check, no plugin download, no registry), as Pulumi's own provider
 * tests do. Program operations (`preview`, `up`, `refresh`, `destroy`) run in a child process
 * (inline-program.ts); the rest are plain CLI commands. Everything is asynchronous, so an
 * emulator served by the calling process keeps answering while `pulumi` runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { InlineRequest, InlineResult } from "./inline-program";
import { REPO_ROOT } from "./repo-root";

/** The runner, compiled (tests run this file from source, the demo from dist/). */
const INLINE_PROGRAM = path.join(REPO_ROOT, "dist", "scripts", "pulumi", "inline-program.js");

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
  /** Kills the operation's whole process group at once: the runner, `pulumi` and its plugins. */
  kill(): void;
}

export interface StackOptions {
  /** The project directory (Pulumi.yaml, program, node_modules). */
  readonly projectDir: string;
  /** The directory holding `pulumi` (see cli-dir.ts). */
  readonly cliDir: string;
  readonly stackName?: string;
  /** Variables for every command: `MESSAGING_*` here reach the provider. Others from this process are not passed. */
  readonly env?: Record<string, string>;
  /** Where the backend, PULUMI_HOME and scratch files go; a new temporary directory by default. */
  readonly stateDir?: string;
}

/** Variables of this process that must not reach the stack unless a test sets them. */
const WITHHELD = /^(MESSAGING_|PULUMI_)/;

/** A count of every `pulumi` command the stacks of this process ran, for the tier's report. */
export const pulumiCommandCount = { value: 0 };

export class PulumiStack {
  readonly projectDir: string;
  readonly stackName: string;
  readonly stateDir: string;
  private readonly cliDir: string;
  private env: Record<string, string>;
  private scratch = 0;

  private constructor(options: StackOptions, stateDir: string) {
    this.projectDir = options.projectDir;
    this.cliDir = options.cliDir;
    this.stackName = options.stackName ?? "dev";
    this.stateDir = stateDir;
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !WITHHELD.test(entry[0])),
    );
    this.env = {
      ...inherited,
      PATH: `${options.cliDir}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: path.join(stateDir, "home"),
      PULUMI_BACKEND_URL: `file://${path.join(stateDir, "backend")}`,
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
    pulumiCommandCount.value++;
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

  /** An object value, stored as JSON (what `Config.requireObject` reads). */
  async setConfigObject(key: string, value: unknown): Promise<void> {
    await this.setConfig(key, JSON.stringify(value));
  }

  async removeConfig(key: string): Promise<void> {
    await this.cli(["config", "rm", key]);
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

  /** Starts a program operation without waiting for it (to kill it part-way, say). */
  start(op: InlineRequest["op"], options: InlineRequest["options"] = {}): RunningOperation {
    // up, preview and refresh each run 4 CLI commands through the Automation API (the operation,
    // two `stack output`, `stack history`); destroy runs the same.
    pulumiCommandCount.value += 4;
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
    const child = spawn(process.execPath, [INLINE_PROGRAM, requestFile], {
      cwd: this.projectDir,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that a kill reaches `pulumi` and the provider plugins too, as
      // a CI runner's cancellation or a closed terminal does.
      detached: true,
    });
    const done = collect(child).then((output): OperationResult => {
      const text = output.stdout + output.stderr;
      if (!fs.existsSync(resultFile)) {
        return { ok: false, error: `pulumi ${op} did not finish (${output.code ?? "killed"})`, text, steps: [], diagnostics: [] };
      }
      return { ...(JSON.parse(fs.readFileSync(resultFile, "utf8")) as InlineResult), text };
    });
    return {
      process: child,
      done,
      kill: () => {
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already ended.
        }
      },
    };
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
