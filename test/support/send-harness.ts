/**
 * Running `messaging send` as users run it: the built CLI in a child process, against a real
 * emulator in the test's process. Children are spawned asynchronously — a sync spawn would
 * block the emulator's event loop. Shared by the send test files.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_MAX_RETRIES } from "../../client";
import type { Emulator } from "../../emulator";
import { emulatorForAllTests } from "./emulator";
import { requireBuild } from "./environment";

export const ROOT = path.resolve(__dirname, "../..");
export const CLI = path.join(ROOT, "dist/cli/main.js");
/** Distinctive, so a leak into any output is unmistakable. Every run checks it is absent. */
export const API_KEY = "sk_test_cli_send_7f3a9c2e5b1d_never_printed";
export const AUTH_HEADER_VALUE = Buffer.from(`${API_KEY}:`).toString("base64");

/** Fails early, with what to do, when the CLI has not been built or its build is older than its sources. */
export function assertBuilt(): void {
  requireBuild();
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: these tests run the built CLI; run \`npm run build\` first (\`npm test\` does).`);
  }
}

/** What a send test file runs against: an emulator and a scratch directory of its own. */
export interface SendTestBed {
  /** Stands for the emulator started before the file's tests: use it inside tests or hooks. */
  readonly emulator: Emulator;
  readonly dir: string;
  /** `messaging send` against this emulator, in this directory (see {@link runSend}). */
  send(args: string[] | string, env?: Record<string, string | undefined>): Promise<RunResult>;
}

/**
 * Registers the hooks of a send test file: before all, an emulator on 127.0.0.1:0; a scratch
 * directory (`prefix…` under the temp dir); after each test, faults off; after all, both gone,
 * even when a test failed.
 */
export function useSendTestBed(prefix: string): SendTestBed {
  beforeAll(() => assertBuilt());
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const emulator = emulatorForAllTests({ port: 0, host: "127.0.0.1", apiKey: API_KEY });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Fault settings are per emulator: every test starts without faults.
  afterEach(() => {
    emulator.setFaults({ failureRate: 0 });
  });
  return { emulator, dir, send: (args, env = {}) => runSend(emulator, dir, args, env) };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/cli/main.js send ...args` in `dir`, with MESSAGING_API_KEY and
 * MESSAGING_BASE_URL pointing at the emulator and journals under `dir/state` unless `env`
 * overrides them (undefined removes a variable), and checks the key shows nowhere in its
 * output. Given a string instead of `args`, runs it with /bin/sh, the CLI standing for its
 * leading `messaging` (or `npx -p pulumi-messaging messaging`, as the CLI prints it for a local install).
 */
export async function runSend(
  emulator: Emulator,
  dir: string,
  args: string[] | string,
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(childEnv)) if (name.startsWith("MESSAGING_")) delete childEnv[name];
  Object.assign(
    childEnv,
    { MESSAGING_API_KEY: API_KEY, MESSAGING_BASE_URL: emulator.url, MESSAGING_STATE_DIR: path.join(dir, "state") },
    env,
  );
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];

  const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
  const options = { cwd: dir, env: childEnv, stdio };
  const child =
    typeof args === "string"
      ? spawn("/bin/sh", ["-c", args.replace(/^(npx -p pulumi-messaging )?messaging /, `'${process.execPath}' '${CLI}' `)], options)
      : spawn(process.execPath, [CLI, "send", ...args], options);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (exitCode) => resolve(exitCode));
  });
  for (const secret of [API_KEY, AUTH_HEADER_VALUE]) {
    expect(stdout).not.toContain(secret);
    expect(stderr).not.toContain(secret);
  }
  return { code, stdout, stderr };
}

/** A distinct recipient for message `i` (E.164). */
export function recipient(i: number): string {
  return `+2547${String(i).padStart(8, "0")}`;
}

/** Attempts a call gets before the client gives up on it. */
export const ATTEMPTS_PER_CALL = DEFAULT_MAX_RETRIES + 1;
