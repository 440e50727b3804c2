/**
 * The README's webhook loop, as a new user runs it: the package from
 * its tarball (no @pulumi/pulumi), `messaging emulator`, `messaging listen --forward-to
 * http://localhost:PORT/webhooks`, the README's Express receiver pasted as is (started with
 * the secret exported by the very line listen printed), then `messaging trigger
 * payment.succeeded`: the receiver verifies the delivery and answers 204, and listen shows it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { PackedTarball, packageDependencies } from "../support/installed-package";
import { codeBlocks } from "../support/markdown-blocks";

/** A child process whose output can be waited on, line by line (events, not timers). */
class Child {
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;
  private waiters: Array<() => void> = [];

  constructor(readonly process: ChildProcess) {
    process.stdout!.setEncoding("utf8").on("data", (text: string) => this.append("stdout", text));
    process.stderr!.setEncoding("utf8").on("data", (text: string) => this.append("stderr", text));
    this.exited = new Promise((resolve) => process.on("exit", (code) => resolve(code)));
  }

  private append(stream: "stdout" | "stderr", text: string): void {
    this[stream] += text;
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves with the match once stdout matches; rejects if the process exits first. */
  async until(pattern: RegExp): Promise<RegExpExecArray> {
    let exited = false;
    void this.exited.then(() => {
      exited = true;
      for (const waiter of this.waiters.splice(0)) waiter();
    });
    for (;;) {
      const match = pattern.exec(this.stdout);
      if (match !== null) return match;
      if (exited || this.process.exitCode !== null) {
        throw new Error(`exited (${this.process.exitCode}) before printing ${pattern}:\n${this.stdout}\n${this.stderr}`);
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

let packed: PackedTarball;
let project: string;
const children: Child[] = [];

function start(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Child {
  const child = new Child(spawn(command, args, { cwd: project, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }));
  children.push(child);
  return child;
}

/** Runs a command to its end. */
async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = start(command, args, env);
  const code = await child.exited;
  return { code, stdout: child.stdout, stderr: child.stderr };
}

/** A port free on localhost now (the README's receiver listens on a port it is given). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "localhost", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(() => {
  const receiver = codeBlocks("README.md").find((block) => block.markers.includes("end-to-end express"));
  if (receiver === undefined) throw new Error("README.md has no block marked <!-- docs-test: end-to-end express -->");
  packed = new PackedTarball();
  project = packed.project({ "package.json": JSON.stringify({ name: "quick-path", private: true }), "server.js": receiver.code }, [
    "express",
    ...packageDependencies(),
  ]);
  // What `npm install` does for the package's bin: node_modules/.bin/messaging, so that npx finds it.
  const manifest = JSON.parse(fs.readFileSync(path.join(project, "node_modules", "pulumi-messaging", "package.json"), "utf8"));
  fs.mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
  const bin = path.join(project, "node_modules", "pulumi-messaging", manifest.bin.messaging);
  fs.chmodSync(bin, 0o755);
  fs.symlinkSync(bin, path.join(project, "node_modules", ".bin", "messaging"));
});

afterAll(async () => {
  for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill("SIGTERM");
  await Promise.all(children.map((child) => child.exited));
  packed?.cleanup();
});

it("emulator, listen, the README's Express receiver and trigger: a verified delivery", async () => {
  // npm's weekly update notice ("npm notice New major version of npm available!") goes to stderr on a machine whose npm cache has
  // no record of a check yet, as a fresh one: npm's words, not the command's.
  const npx = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run("npx", ["--no-install", "messaging", ...args], { npm_config_update_notifier: "false", ...env });

  // The long-running commands run under node itself (what npx runs), so that a signal reaches them, not npx.
  const messaging = path.join(project, "node_modules", ".bin", "messaging");
  const emulator = start(process.execPath, [messaging, "emulator", "--port", "0"]);
  const baseUrl = (await emulator.until(/listening on (http:\/\/\S+)/))[1];
  const env = { MESSAGING_BASE_URL: baseUrl };

  const port = await freePort();
  const url = `http://localhost:${port}/webhooks`;
  const listen = start(process.execPath, [messaging, "listen", "--forward-to", url], env);
  await listen.until(/^ready: /m);
  const exportLine = (await listen.until(/^ {2}(export MESSAGING_WEBHOOK_SECRET=.*)$/m))[1];
  expect(listen.stdout).not.toMatch(/whsec_[A-Za-z0-9_-]{20,}/); // masked

  // The printed line, run by a shell as the user would paste it.
  const secret = await run("sh", ["-c", `${exportLine} && printf %s "$MESSAGING_WEBHOOK_SECRET"`], env);
  expect(secret.code).toBe(0);
  expect(secret.stdout).toMatch(/^whsec_/);

  const receiver = start("node", ["server.js"], { PORT: String(port), MESSAGING_WEBHOOK_SECRET: secret.stdout });
  await receiver.until(/receiver listening on /);

  const trigger = await npx(["trigger", "payment.succeeded"], env);
  expect(trigger.stderr.replace(/^npm warn .*\n/gm, "")).toBe("");
  expect(trigger.stdout).toMatch(/^ {2}http:\/\/localhost:\d+\/webhooks {2}attempt 1: HTTP 204 in .* → delivered/m);
  expect(trigger.code).toBe(0);

  const eventId = /event (evt_\w+)/.exec(trigger.stdout)![1];
  await receiver.until(new RegExp(`received payment\\.succeeded ${eventId}`));
  await listen.until(new RegExp(`${eventId} {2}payment\\.succeeded {2}attempt 1 {2}→ 204`));

  // A forged request to the same receiver is refused.
  const forged = await fetch(url, { method: "POST", body: "{}", headers: { "x-service-signature": `t=1,sha256=${"0".repeat(64)}` } });
  expect(forged.status).toBe(401);

  // Ctrl-C ends listen cleanly.
  listen.process.kill("SIGINT");
  expect(await listen.exited).toBe(0);
  expect(listen.stdout).toMatch(/stopped\n$/);
});
