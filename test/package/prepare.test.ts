/**
 * npm's `prepare` (scripts/build/prepare.js) compiles only a build that is missing or older than its
 * sources: `npm ci && npm pack` compiles once (npm ci's prepare), and npm pack's own prepare
 * finds dist/ current. The same judgment makes the tests refuse a stale build (test/pack-once.js).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, requireBuild } from "../support/environment";

const { staleBuild } = require("../../scripts/build/build-freshness") as { staleBuild(repo?: string): string | undefined };

describe("staleBuild", () => {
  let repo: string;
  const write = (file: string, at: number) => {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), "");
    fs.utimesSync(path.join(repo, file), at, at);
  };
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-freshness-"));
    fs.writeFileSync(path.join(repo, "tsconfig.build.json"), JSON.stringify({ include: ["index.ts", "cli"] }));
    fs.writeFileSync(path.join(repo, "tsconfig.json"), "{}");
    for (const file of ["tsconfig.build.json", "tsconfig.json"]) fs.utimesSync(path.join(repo, file), 1000, 1000);
    write("index.ts", 1000);
    write("cli/main.ts", 1000);
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  it("no dist/: missing", () => {
    expect(staleBuild(repo)).toMatch(/^dist\/ is missing/);
  });

  it("dist/ newer than every source: current", () => {
    write("dist/index.js", 2000);
    expect(staleBuild(repo)).toBeUndefined();
  });

  it("a source (or a tsconfig) changed after the build: stale, naming it", () => {
    write("dist/index.js", 2000);
    write("cli/main.ts", 3000);
    expect(staleBuild(repo)).toBe("dist/ is older than cli/main.ts: run `npm run build` (`npm test` does)");
    fs.utimesSync(path.join(repo, "cli/main.ts"), 1000, 1000);
    fs.utimesSync(path.join(repo, "tsconfig.json"), 3000, 3000);
    expect(staleBuild(repo)).toMatch(/older than tsconfig\.json/);
  });
});

it("prepare after a build compiles nothing: dist/ is left as it is", async () => {
  requireBuild();
  const before = fs.statSync(path.join(REPO_ROOT, "dist", "index.js")).mtimeMs;
  const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, "scripts", "build", "prepare.js")], { cwd: REPO_ROOT }, (error, _stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stderr }),
    );
  });
  expect(run).toEqual({ code: 0, stderr: "pulumi-messaging: dist/ is already built from these sources; not compiled again\n" });
  expect(fs.statSync(path.join(REPO_ROOT, "dist", "index.js")).mtimeMs).toBe(before);
});
