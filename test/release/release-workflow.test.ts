/**
 * .github/workflows/release.yml: checked by actionlint (the Go module github.com/rhysd/actionlint,
 * pinned, `go install`ed into the cache outside the repository once), and read for what makes a
 * release safe to re-run: separate jobs in order, each with only the permission it needs, every
 * action pinned by commit SHA, each registry published by the release script of
 * `npm run release:local`, prerelease tags taken, and a verify-release job on Linux, macOS and
 * Windows. What the publish steps do when a registry already holds the version is run against
 * the local registries in test/languages/new-user.test.ts.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot } from "../../scripts/release/plugin/node-runtime";
import { REPO_ROOT } from "../../scripts/repo-root";
import { isPrerelease, npmDistTag, REGISTRIES } from "../../scripts/release/publish";
import { pythonVersion } from "../../scripts/release/artifacts";

const ACTIONLINT = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12";
const WORKFLOW = path.join(REPO_ROOT, ".github", "workflows", "release.yml");

type Step = { uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown> };
type Job = {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
  strategy?: { matrix: { os: string[] } };
  "runs-on": string;
};
type Workflow = { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: Record<string, Job> };

// js-yaml comes with @pulumi/pulumi, a devDependency.
const workflow = (require("js-yaml") as { safeLoad(text: string): unknown }).safeLoad(fs.readFileSync(WORKFLOW, "utf8")) as Workflow;
const needs = (job: Job): string[] => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);

/** actionlint's path, installed the first time; undefined (outside CI) without Go. */
function actionlint(): string | undefined {
  const bin = path.join(cacheRoot(), "actionlint-v1.7.12");
  const executable = path.join(bin, "actionlint");
  if (fs.existsSync(executable)) return executable;
  if (spawnSync("go", ["version"]).status !== 0) {
    if (process.env.CI === "true") throw new Error("go is not on PATH: CI needs it to install actionlint");
    return undefined;
  }
  const installed = spawnSync("go", ["install", ACTIONLINT], { env: { ...process.env, GOBIN: bin }, encoding: "utf8" });
  if (installed.status !== 0) throw new Error(`go install ${ACTIONLINT} failed:\n${installed.stderr}`);
  return executable;
}

const lint = (executable: string, file: string) =>
  spawnSync(executable, ["-no-color", "-shellcheck=", "-pyflakes=", file], { encoding: "utf8", cwd: REPO_ROOT });

test("actionlint finds nothing in the release workflow, and does find a broken one", () => {
  const executable = actionlint();
  if (!executable) {
    process.stderr.write("release workflow: actionlint skipped: no go on PATH\n");
    return;
  }
  const clean = lint(executable, WORKFLOW);
  expect(clean.stdout + clean.stderr).toBe("");
  expect(clean.status).toBe(0);

  const broken = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-workflow-")), "release.yml");
  try {
    fs.writeFileSync(broken, fs.readFileSync(WORKFLOW, "utf8").replace("    needs: test\n", "    needs: tests\n"));
    const found = lint(executable, broken);
    expect(found.status).not.toBe(0);
    expect(found.stdout).toMatch(/tests/);
  } finally {
    fs.rmSync(path.dirname(broken), { recursive: true, force: true });
  }
});

test("separate jobs in order: test, build, the plugin's GitHub release, then Go, PyPI and npm, then verify-release", () => {
  expect(Object.keys(workflow.jobs).sort()).toEqual(
    ["build", "publish-github", "publish-go", "publish-npm", "publish-pypi", "test", "verify-release"].sort(),
  );
  expect(needs(workflow.jobs.build)).toEqual(["test"]);
  expect(needs(workflow.jobs["publish-github"])).toEqual(["build"]);
  for (const registry of ["go", "pypi", "npm"]) expect(needs(workflow.jobs[`publish-${registry}`])).toEqual(["publish-github"]);
  expect(needs(workflow.jobs["verify-release"]).sort()).toEqual(["build", "publish-github", "publish-go", "publish-npm", "publish-pypi"]);
  expect(workflow.jobs.test.steps.map((step) => step.run)).toContain("CI=true bash .ci/run");
  expect(workflow.jobs.build.steps.map((step) => step.run)).toContain("npm run release:public -- build");
});

test("least permissions: none at the top; contents: write only where a release or a tag is made; each secret in its own job", () => {
  expect(workflow.permissions).toEqual({});
  const writers = Object.entries(workflow.jobs)
    .filter(([, job]) => Object.values(job.permissions ?? {}).includes("write"))
    .map(([name]) => name);
  expect(writers.sort()).toEqual(["publish-github", "publish-go"]);
  for (const [name, job] of Object.entries(workflow.jobs)) {
    expect(job.permissions).toBeDefined();
    const secrets = JSON.stringify(job.steps).match(/secrets\.\w+/g) ?? [];
    const allowed = { "publish-pypi": ["secrets.PYPI_TOKEN"], "publish-npm": ["secrets.NPM_TOKEN"] }[name] ?? [];
    expect([name, secrets]).toEqual([name, allowed]);
  }
});

test("every action is pinned by a commit SHA, with its version in a comment", () => {
  const text = fs.readFileSync(WORKFLOW, "utf8");
  const uses = [...text.matchAll(/uses: (\S+)(.*)$/gm)];
  expect(uses.length).toBeGreaterThan(10);
  for (const [, action, comment] of uses) {
    expect(action).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
    expect(comment).toMatch(/^ # v\d+\.\d+\.\d+$/);
  }
});

test("each registry is published once, by the release script, skipping what is there (publish.ts)", () => {
  const publishes = Object.values(workflow.jobs)
    .flatMap((job) => job.steps.map((step) => step.run))
    .filter((run) => run?.startsWith("npm run release:public -- publish "));
  expect(publishes.sort()).toEqual(REGISTRIES.map((registry) => `npm run release:public -- publish ${registry}`).sort());
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  expect(manifest.scripts["release:public"]).toBe("npm run build && node dist/scripts/release/public.js");
  expect(manifest.scripts["release:local"]).toBe("npm run build && node dist/scripts/release/local.js");
  for (const file of ["public.ts", "local.ts"]) {
    expect(fs.readFileSync(path.join(REPO_ROOT, "scripts", "release", file), "utf8")).toMatch(/publish(To)?\(/);
  }
});

test("prereleases: the tags catch v1.2.3 and v1.2.3-rc.1, and such a version goes to npm's next, PyPI's 1.2.3rc1, a GitHub prerelease", () => {
  // GitHub's tag filters: `+` repeats the character class before it, `*` matches anything but `/`.
  const matches = (tag: string) =>
    workflow.on.push.tags.some((pattern) => new RegExp(`^${pattern.replace(/\./g, "\\.").replace(/\*/g, "[^/]*")}$`).test(tag));
  expect(["v0.1.0", "v1.2.3", "v1.2.3-rc.1", "v10.0.0-beta.2"].filter(matches)).toHaveLength(4);
  expect(["v1", "release-1.0.0", "vnext"].filter(matches)).toEqual([]);
  expect([isPrerelease("1.2.3"), isPrerelease("1.2.3-rc.1")]).toEqual([false, true]);
  expect([npmDistTag("1.2.3"), npmDistTag("1.2.3-rc.1")]).toEqual(["latest", "next"]);
  expect(["1.2.3", "1.2.3-rc.1", "1.2.3-alpha.2", "1.2.3-beta.1"].map(pythonVersion)).toEqual(["1.2.3", "1.2.3rc1", "1.2.3a2", "1.2.3b1"]);
  expect(fs.readFileSync(path.join(REPO_ROOT, "scripts", "release", "publish.ts"), "utf8")).toContain(
    'isPrerelease(artifacts.version) ? ["--prerelease"]',
  );
});

test("verify-release installs by name on Linux, macOS and Windows runners", () => {
  const verify = workflow.jobs["verify-release"];
  // macos-latest is arm64, macos-15-intel x86-64; windows-11-arm is arm64.
  expect(verify.strategy?.matrix.os).toEqual(["ubuntu-latest", "macos-latest", "macos-15-intel", "windows-latest", "windows-11-arm"]);
  expect(verify["runs-on"]).toBe("${{ matrix.os }}");
  expect(verify.steps.map((step) => step.run)).toContain('npm run release:public -- verify "${{ needs.build.outputs.version }}"');
});

test("the CHANGELOG's first section is package.json's version, and no version has two sections", () => {
  const changelog = fs.readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");
  const versions = [...changelog.matchAll(/^## (\S+)/gm)].map((match) => match[1]);
  expect(versions[0]).toBe(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version);
  expect(new Set(versions).size).toBe(versions.length);
  expect(versions).not.toContain("Unreleased");
});
