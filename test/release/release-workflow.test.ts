/**
 * .github/workflows/release.yml, checked by actionlint (the Go module github.com/rhysd/actionlint,
 * pinned, `go install`ed into the cache outside the repository once), and shown to be the public
 * side of the same release script as `npm run release:local`.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot } from "../../scripts/release/plugin/node-runtime";
import { REPO_ROOT } from "../../scripts/repo-root";

const ACTIONLINT = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12";
const WORKFLOW = path.join(REPO_ROOT, ".github", "workflows", "release.yml");

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
    fs.writeFileSync(
      broken,
      fs.readFileSync(WORKFLOW, "utf8").replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    needs: [build]"),
    );
    const found = lint(executable, broken);
    expect(found.status).not.toBe(0);
    expect(found.stdout).toMatch(/build/);
  } finally {
    fs.rmSync(path.dirname(broken), { recursive: true, force: true });
  }
});

test("the workflow runs on v* tags, tests as CI does, and publishes with the release script of release:local", () => {
  const text = fs.readFileSync(WORKFLOW, "utf8");
  expect(text).toMatch(/tags: \["v\*"\]/);
  expect(text).toContain("CI=true bash .ci/run");
  expect(text).toContain("npm run release:public");
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  expect(manifest.scripts["release:public"]).toBe("npm run build && node dist/scripts/release/public.js");
  expect(manifest.scripts["release:local"]).toBe("npm run build && node dist/scripts/release/local.js");
  // Both build with buildArtifacts and publish with publish(): only the targets differ.
  for (const file of ["public.ts", "local.ts"]) {
    const source = fs.readFileSync(path.join(REPO_ROOT, "scripts", "release", file), "utf8");
    expect(source).toMatch(/await publish\(artifacts, /);
  }
});
