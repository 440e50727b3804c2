/**
 * Runs a command to its end without blocking the event loop, so a registry served by the same
 * process keeps answering while npm, pip or go talk to it. The output is returned; on failure
 * it is in the error, with the command (never its environment, which may hold credentials).
 */
import { spawn } from "node:child_process";

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // npm and npx are .cmd scripts on Windows (the verify-release job), which only a shell starts.
    const shell = process.platform === "win32";
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, shell, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code} (in ${options.cwd ?? process.cwd()}):\n${stdout}\n${stderr}`)),
    );
  });
}
