/** Every `messaging` command explains itself: `--help`, `-h`, `messaging help <command>`, `--version`. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { COMMANDS, usageLines, type CommandName } from "../../cli/commands";
import { requireBuild } from "../support/environment";

const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "dist/cli/main.js");

beforeAll(requireBuild);

function messaging(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr });
    });
  });
}

describe("messaging help", () => {
  it.each([
    ["send", ["send", "--help"]],
    ["send", ["send", "-h"]],
    ["send", ["help", "send"]],
    ["emulator", ["emulator", "--help"]],
    ["emulator", ["help", "emulator"]],
    ["trigger", ["trigger", "--help"]],
    ["trigger", ["help", "trigger"]],
    ["listen", ["listen", "--help"]],
    ["listen", ["help", "listen"]],
    ["endpoints", ["endpoints", "--help"]],
    ["endpoints", ["help", "endpoints"]],
  ])("%s: %p prints its usage, options and exit codes, exit 0", async (command, args) => {
    const run = await messaging(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`usage: messaging ${command}`);
    expect(run.stdout).toContain("options:");
    expect(run.stdout).toContain("exit codes:");
    expect(run.stdout).toContain("MESSAGING_");
  });

  const names = Object.keys(COMMANDS) as CommandName[];

  it.each(names)("%s: --help shows the registry's usage lines and names every option the command parses", async (name) => {
    const run = await messaging([name, "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(usageLines(name));
    const missing = Object.keys(COMMANDS[name].options).filter((option) => !run.stdout.includes(`--${option}`));
    expect(missing).toEqual([]);
  });

  it.each(names)("%s: main dispatches it (a bad argument: exit 2, its own usage and summary)", async (name) => {
    const run = await messaging([name, "--no-such-option"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^messaging ${name}: `));
    expect(run.stderr).toContain(usageLines(name));
    expect(run.stderr).toContain(COMMANDS[name].summary);
  });

  it("messaging --help lists the commands; --version prints the package version", async () => {
    const help = await messaging(["--help"]);
    expect(help.code).toBe(0);
    for (const name of names) expect(help.stdout).toContain(usageLines(name, "  "));
    const version = await messaging(["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
  });

  it("an unknown command: exit 2 with the usage and the command meant", async () => {
    const run = await messaging(["sned"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'sned' (did you mean send?)");
  });

  it("every command's --help and messaging --help print the one exit-code table", async () => {
    const { exitCodesHelp } = await import("../../cli/exit-codes");
    const table = exitCodesHelp();
    for (const args of [["--help"], ...names.map((name) => [name, "--help"])]) {
      const run = await messaging(args);
      expect({ args, table: run.stdout.includes(table) }).toEqual({ args, table: true });
    }
  });

  it("a port in use: exit 1 with a hint", async () => {
    const server = await new Promise<import("node:net").Server>((resolve) => {
      const s = require("node:net").createServer();
      s.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const port = (server.address() as import("node:net").AddressInfo).port;
      const run = await messaging(["emulator", "--port", String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("EADDRINUSE");
      expect(run.stderr).toContain("the port is taken");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
