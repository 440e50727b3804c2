/**
 * The parent side of the local engine: runs one operation in a fresh Node process (the SDK
 * keeps global state, as it does under the Pulumi CLI) and returns what happened.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FAILED_RUN_EXIT_CODE, type EngineResult } from "./plan";
import { REPO_ROOT } from "./repo-root";
import type { RunRequest } from "./run-program";

export interface LocalStackOptions {
  /** The Pulumi project directory (with Pulumi.yaml and node_modules). */
  projectDir: string;
  /** Stack name; default `dev`. */
  stack?: string;
  /** Where the stack's state is kept; default `<projectDir>/.local-state/<stack>.json`. */
  stateFile?: string;
  /** Stack config, `namespace:key` → value. */
  config?: Record<string, string>;
  /** Which config keys are secrets. */
  secretKeys?: string[];
  /** Environment of the program and the provider process; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** A stack driven by the local engine: `preview`, `up`, `refresh`, `destroy`. */
export class LocalStack {
  readonly stack: string;
  readonly stateFile: string;

  constructor(private readonly options: LocalStackOptions) {
    this.stack = options.stack ?? "dev";
    this.stateFile = options.stateFile ?? path.join(options.projectDir, ".local-state", `${this.stack}.json`);
  }

  preview(): Promise<EngineResult> {
    return this.run("preview");
  }
  /** `pulumi up --yes --skip-preview`: the program runs once (a plain `pulumi up` runs it twice, preview first). */
  up(): Promise<EngineResult> {
    return this.run("up");
  }
  refresh(): Promise<EngineResult> {
    return this.run("refresh");
  }
  destroy(): Promise<EngineResult> {
    return this.run("destroy");
  }

  /** The recorded state file's text (for inspection). */
  stateText(): string {
    return fs.existsSync(this.stateFile) ? fs.readFileSync(this.stateFile, "utf8") : "";
  }

  private async run(operation: EngineResult["operation"]): Promise<EngineResult> {
    fs.mkdirSync(path.dirname(this.stateFile), { recursive: true });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "local-engine-"));
    const request: RunRequest = {
      operation,
      projectDir: this.options.projectDir,
      stack: this.stack,
      stateFile: this.stateFile,
      resultFile: path.join(work, "result.json"),
    };
    fs.writeFileSync(path.join(work, "request.json"), JSON.stringify(request));
    // Config travels in the environment, as the Pulumi CLI passes it to programs.
    const env = {
      ...(this.options.env ?? process.env),
      PULUMI_CONFIG: JSON.stringify(this.options.config ?? {}),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(this.options.secretKeys ?? []),
    };
    const stderr: string[] = [];
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, "dist", "engine", "run-program.js"), path.join(work, "request.json")], {
        cwd: this.options.projectDir,
        env,
        stdio: ["ignore", "inherit", "pipe"],
      });
      child.stderr!.on("data", (chunk) => stderr.push(String(chunk)));
      // "close", not "exit": by then its stderr is read to the end, for the error below.
      child.on("close", resolve);
    });
    try {
      if ((code !== 0 && code !== FAILED_RUN_EXIT_CODE) || !fs.existsSync(request.resultFile)) {
        throw new Error(`local engine ${operation} failed (exit ${code}):\n${stderr.join("")}`);
      }
      return JSON.parse(fs.readFileSync(request.resultFile, "utf8")) as EngineResult;
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
}
