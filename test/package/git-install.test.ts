/**
 * `npm install git+<url>`, as the README offers it: npm clones the repository, installs its
 * dependencies, runs `prepare` (which builds dist/) and packs it. The repository here is a
 * fresh git repository holding this working tree's files (committed or not, ignored ones
 * left out), so the test sees what a push of this tree would give users.
 *
 * It needs the npm registry, or npm's cache filled by this repository's `npm ci`
 * (`--prefer-offline` uses the cache first).
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO, runNode } from "../support/installed-package";

let root: string;
let app: string;

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-git-install-"));
  const source = path.join(root, "source");
  app = path.join(root, "app");
  fs.mkdirSync(source);
  fs.mkdirSync(app);
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO, encoding: "utf8" })
    .split("\0")
    .filter((file) => file !== "" && fs.existsSync(path.join(REPO, file)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(source, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO, file), path.join(source, file));
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.invalid", ...args], { cwd: source, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "snapshot");
  expect(fs.existsSync(path.join(source, "dist"))).toBe(false); // only what a clone has

  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "git-install", private: true }));
  const install = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `git+${pathToFileURL(source).href}`], app);
  if (install.code !== 0) throw new Error(`npm install git+file:// failed (${install.code}):\n${install.stderr}`);
});

afterAll(() => {
  if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
});

describe("installed from a git URL", () => {
  it("arrives built: /receiver verifies a signed event", async () => {
    const check = await runNode(
      [
        "-e",
        `const { signPayload, constructEvent } = require("pulumi-messaging/receiver");
         const body = JSON.stringify({ id: "evt_1", type: "payment.succeeded", created: "2024-06-01T00:00:00Z", data: { object: {} } });
         console.log(constructEvent(body, signPayload(body, "whsec_x"), "whsec_x").type);`,
      ],
      app,
    );
    expect(check.stderr).toBe("");
    expect(check.stdout.trim()).toBe("payment.succeeded");
  });

  it("has the messaging executable: npx messaging --version", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
    const version = await run("npx", ["--no-install", "messaging", "--version"], app);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(manifest.version);
  });
});
