/**
 * `npm run release:public`: the public release, run by .github/workflows/release.yml on a tag
 * `v<version>`. The same artifacts and steps as `npm run release:local` (./local.ts), with the
 * public registries as targets: npm (NPM_TOKEN), PyPI (PYPI_TOKEN, an API token), the Go module
 * by pushing the tag `sdk/go/v<version>`, and a GitHub release of the repository with the plugin
 * archives and checksums.txt (GH_TOKEN). Never run from the development machines, which reach
 * no public registry with credentials.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../repo-root";
import { buildArtifacts } from "./artifacts";
import { RELEASE_REPOSITORY } from "./local-registries";
import { describeArtifacts } from "./local";
import { publish } from "./publish";

function secret(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the public release needs it (a secret of the workflow)`);
  return value;
}

async function main(): Promise<void> {
  // Read first: a missing secret fails before anything is built.
  const targets = {
    npm: { registry: "https://registry.npmjs.org/", token: secret("NPM_TOKEN") },
    pypi: { uploadUrl: "https://upload.pypi.org/legacy/", username: "__token__", password: secret("PYPI_TOKEN") },
    go: { pushTag: true as const },
    plugins: { githubRelease: { repository: RELEASE_REPOSITORY } },
  };
  secret("GH_TOKEN");
  const artifacts = await buildArtifacts(path.join(REPO_ROOT, "dist", "release"));
  process.stdout.write(`Releasing ${artifacts.version}:\n${describeArtifacts(artifacts)}\n`);
  await publish(artifacts, targets);
}

main().catch((error: unknown) => {
  process.stderr.write(`release:public failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
