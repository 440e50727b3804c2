/**
 * Publishes a release's artifacts (./artifacts.ts) to its registries. The same steps serve
 * `npm run release:local` (registries started on 127.0.0.1: ./local-registries.ts) and the
 * public release (`.github/workflows/release.yml`: ./public.ts); only the URLs and credentials
 * differ. Credentials reach the tools through their environment or a config file written for
 * the run, never their arguments or the log.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ReleaseArtifacts } from "./artifacts";
import { pythonReleaseTools } from "./python-tools";
import { run } from "./run";

export interface ReleaseTargets {
  /** An npm registry and a token that may publish to it. */
  readonly npm: { readonly registry: string; readonly token: string };
  /** A PyPI upload URL (twine's `--repository-url`) and its credentials (`__token__` and a token on PyPI). */
  readonly pypi: { readonly uploadUrl: string; readonly username: string; readonly password: string };
  /**
   * Go: a module proxy directory to copy the module's files into (local), or the git tag
   * `sdk/go/v<version>` pushed to the repository's `origin`, which is what publishes a Go module.
   */
  readonly go: { readonly proxyDir: string } | { readonly pushTag: true };
  /**
   * The release location of the plugin archives and checksums.txt: a directory laid out as
   * GitHub's release downloads (`<owner>/<repo>/releases/download/v<version>/`, served over HTTP
   * by the local release), or a GitHub release made with `gh` (GH_TOKEN in the environment).
   */
  readonly plugins: { readonly dir: string } | { readonly githubRelease: { readonly repository: string } };
}

/** npm publish of each tarball, authenticated by a userconfig of this run holding the token. */
async function publishNpm(artifacts: ReleaseArtifacts, target: ReleaseTargets["npm"]): Promise<void> {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-npmrc-"));
  try {
    const npmrc = path.join(config, ".npmrc");
    const host = target.registry.replace(/^https?:/, "").replace(/\/?$/, "/");
    // The token is read from the environment by npm (`${NPM_PUBLISH_TOKEN}`), not written here.
    fs.writeFileSync(npmrc, `registry=${target.registry}\n${host}:_authToken=\${NPM_PUBLISH_TOKEN}\n`, { mode: 0o600 });
    const env = { ...process.env, NPM_PUBLISH_TOKEN: target.token, npm_config_userconfig: npmrc };
    for (const tarball of [artifacts.npm.root, artifacts.npm.sdk])
      await run("npm", ["publish", tarball, "--registry", target.registry, "--access", "public", "--loglevel=error"], { env });
  } finally {
    fs.rmSync(config, { recursive: true, force: true });
  }
}

/** twine upload of the wheel and sdist. */
async function publishPython(artifacts: ReleaseArtifacts, target: ReleaseTargets["pypi"]): Promise<void> {
  const tools = await pythonReleaseTools();
  const env = { ...process.env, TWINE_USERNAME: target.username, TWINE_PASSWORD: target.password, TWINE_NON_INTERACTIVE: "1" };
  await run(
    path.join(tools, "twine"),
    ["upload", "--disable-progress-bar", "--repository-url", target.uploadUrl, artifacts.python.wheel, artifacts.python.sdist],
    { env },
  );
}

async function publishGo(artifacts: ReleaseArtifacts, target: ReleaseTargets["go"]): Promise<void> {
  if ("proxyDir" in target) {
    fs.cpSync(artifacts.go.proxyDir, target.proxyDir, { recursive: true });
    return;
  }
  await run("git", ["tag", artifacts.go.tag]);
  await run("git", ["push", "origin", artifacts.go.tag]);
}

async function publishPlugins(artifacts: ReleaseArtifacts, target: ReleaseTargets["plugins"]): Promise<void> {
  const files = [...artifacts.release.archives, artifacts.release.checksums];
  if ("dir" in target) {
    fs.mkdirSync(target.dir, { recursive: true });
    for (const file of files) fs.copyFileSync(file, path.join(target.dir, path.basename(file)));
    return;
  }
  const tag = `v${artifacts.version}`;
  await run("gh", ["release", "create", tag, "--repo", target.githubRelease.repository, "--title", tag, "--generate-notes", ...files]);
}

/** Publishes every artifact; the plugin archives first, so an SDK is never published before the plugin it asks for. */
export async function publish(artifacts: ReleaseArtifacts, targets: ReleaseTargets): Promise<void> {
  await publishPlugins(artifacts, targets.plugins);
  await publishGo(artifacts, targets.go);
  await publishPython(artifacts, targets.pypi);
  await publishNpm(artifacts, targets.npm);
}
