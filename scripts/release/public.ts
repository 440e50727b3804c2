/**
 * `npm run release:public -- <step>`: the public release, one step a job of
 * .github/workflows/release.yml, with the same code as `npm run release:local` (./local.ts):
 *
 * - `build`: every artifact into dist/release (./artifacts.ts, with its manifest), then prints
 *   each with its size and sha256, and (in GitHub Actions) the version and whether it is a
 *   prerelease as step outputs. Needs no secret.
 * - `publish <github|go|pypi|npm>`: what `build` wrote, copied into dist/release by the job,
 *   published to that one registry, skipping what it already holds (./publish.ts). Each job has
 *   only its own credential: GH_TOKEN (the GitHub release, the Go tag), PYPI_TOKEN, NPM_TOKEN.
 * - `verify <version>`: the version installed by name from the public registries, on this
 *   machine (./verify.ts).
 *
 * Never run from the development machines, which reach no public registry with credentials.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../repo-root";
import { buildArtifacts, loadArtifacts } from "./artifacts";
import { RELEASE_REPOSITORY } from "./local-registries";
import { describeArtifacts } from "./local";
import { isPrerelease, publishTo, REGISTRIES, type Registry, type ReleaseTargets } from "./publish";
import { verifyRelease } from "./verify";

const DIR = path.join(REPO_ROOT, "dist", "release");

function secret(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: this step of the public release needs it (a secret of its job)`);
  return value;
}

/** The public target of one registry, reading only that registry's credential. */
function target(registry: Registry): Partial<ReleaseTargets> {
  switch (registry) {
    case "github":
      secret("GH_TOKEN");
      return { plugins: { githubRelease: { repository: RELEASE_REPOSITORY } } };
    case "go":
      secret("GH_TOKEN");
      return { go: { pushTag: true } };
    case "pypi":
      return {
        pypi: {
          uploadUrl: "https://upload.pypi.org/legacy/",
          indexUrl: "https://pypi.org/simple/",
          username: "__token__",
          password: secret("PYPI_TOKEN"),
        },
      };
    case "npm":
      return { npm: { registry: "https://registry.npmjs.org/", token: secret("NPM_TOKEN") } };
  }
}

async function main(args: readonly string[]): Promise<void> {
  const [step, argument] = args;
  if (step === "build") {
    const artifacts = await buildArtifacts(DIR);
    process.stdout.write(`Built ${artifacts.version}:\n${describeArtifacts(artifacts)}\n`);
    if (process.env.GITHUB_OUTPUT)
      fs.appendFileSync(process.env.GITHUB_OUTPUT, `version=${artifacts.version}\nprerelease=${isPrerelease(artifacts.version)}\n`);
    return;
  }
  if (step === "publish" && (REGISTRIES as readonly string[]).includes(argument)) {
    const registry = argument as Registry;
    const targets = target(registry) as ReleaseTargets;
    const report = await publishTo(registry, loadArtifacts(DIR), targets);
    process.stdout.write(
      `${registry}: published ${report.published.join(", ") || "nothing"}; already there ${report.skipped.join(", ") || "nothing"}\n`,
    );
    return;
  }
  if (step === "verify" && argument) {
    await verifyRelease({
      version: argument,
      releaseDownloads: `https://github.com/${RELEASE_REPOSITORY}/releases/download/v${argument}`,
    });
    return;
  }
  throw new Error(`usage: release:public -- build | publish <${REGISTRIES.join("|")}> | verify <version>`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`release:public failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
