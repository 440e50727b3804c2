/**
 * `npm run release:local`: the whole release, against real registry servers run on 127.0.0.1
 * (./local-registries.ts): every artifact built at package.json's version (./artifacts.ts) into
 * dist/release/, then published by the same steps as the public release (./publish.ts). It
 * prints each artifact with its size and sha256, and where each registry was; with `--serve` it
 * keeps them running until interrupted, so a user can try the installs by hand.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../repo-root";
import { artifactFiles, buildArtifacts, type ReleaseArtifacts } from "./artifacts";
import { startLocalRegistries, type LocalRegistries } from "./local-registries";
import { publish } from "./publish";

/** Builds every artifact into `dir` and publishes it to registries started here; the caller closes them. */
export async function releaseLocal(
  dir: string = path.join(REPO_ROOT, "dist", "release"),
): Promise<{ artifacts: ReleaseArtifacts; registries: LocalRegistries }> {
  const [artifacts, registries] = await Promise.all([buildArtifacts(dir), startLocalRegistries()]);
  try {
    for (const report of await publish(artifacts, registries.targets))
      process.stderr.write(
        `${report.registry}: published ${report.published.join(", ") || "nothing"}; already there ${report.skipped.join(", ") || "nothing"}\n`,
      );
  } catch (error) {
    await registries.close();
    throw error;
  }
  return { artifacts, registries };
}

/** Each artifact's name, size and sha256, one a line. */
export function describeArtifacts(artifacts: ReleaseArtifacts): string {
  return artifactFiles(artifacts)
    .map((file) => {
      const bytes = fs.readFileSync(file);
      return `${path.relative(artifacts.dir, file)}  ${(bytes.length / 1024 / 1024).toFixed(2)} MiB  sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    })
    .join("\n");
}

if (require.main === module) {
  const serve = process.argv.includes("--serve");
  releaseLocal().then(
    async ({ artifacts, registries }) => {
      process.stdout.write(`Released ${artifacts.version} (${artifacts.dir}):\n${describeArtifacts(artifacts)}\n\n`);
      process.stdout.write(
        [
          `npm:      ${registries.npmRegistry}   npm install pulumi-messaging @pulumi-messaging/messaging --registry ${registries.npmRegistry}`,
          `PyPI:     ${registries.pypiIndex}   pip install pulumi_messaging --index-url ${registries.pypiIndex} --extra-index-url https://pypi.org/simple`,
          `Go:       GOPROXY=file://${registries.goProxyDir},https://proxy.golang.org GONOSUMDB=github.com/pulumi-messaging go get ${artifacts.go.module}@${artifacts.go.version}`,
          `plugin:   PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES='${registries.pluginDownloadOverride}' pulumi plugin install resource messaging ${artifacts.version} --server github://api.github.com/pulumi-messaging/pulumi-messaging`,
          "",
        ].join("\n"),
      );
      if (!serve) return registries.close();
      process.stdout.write("Serving until interrupted (Ctrl-C).\n");
      process.once("SIGINT", () => void registries.close().then(() => process.exit(0)));
    },
    (error: unknown) => {
      process.stderr.write(`release:local failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
