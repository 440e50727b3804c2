/** Every `messaging` command explains itself: `--help`, `-h`, `messaging help <command>`, `--version`. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "dist/cli/main.js");

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
  ])("%s: %p prints its usage, options and exit codes, exit 0", async (command, args) => {
    const run = await messaging(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`usage: messaging ${command}`);
    expect(run.stdout).toContain("options:");
    expect(run.stdout).toContain("exit codes:");
    expect(run.stdout).toContain("MESSAGING_");
  });

  it("emulator --help names every option the command accepts", async () => {
    const run = await messaging(["emulator", "--help"]);
    for (const option of ["--port", "--host", "--api-key", "--max-stored-messages", "--delivery-retry-schedule"])
      expect(run.stdout).toContain(option);
  });

  it("messaging --help lists the commands; --version prints the package version", async () => {
    const help = await messaging(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/messaging emulator[\s\S]*messaging send/);
    const version = await messaging(["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
  });

  it("an unknown command: exit 2 with the usage", async () => {
    const run = await messaging(["sned"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'sned'");
  });
});
