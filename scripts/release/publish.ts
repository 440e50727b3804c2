/**
 * Publishes a release's artifacts (./artifacts.ts) to its registries, one registry at a time. The
 * same steps serve `npm run release:local` (registries started on 127.0.0.1:
 * ./local-registries.ts) and the public release (`.github/workflows/release.yml`, one job a
 * registry: ./public.ts); only the URLs and credentials differ. Credentials reach the tools
 * through their environment or a config file written for the run, never their arguments or the log.
 *
 * Re-runnable: each registry is asked first what it already holds, and only what is missing is
 * published. A failed release is finished by running it again; a file already published with
 * other bytes is an error, never overwritten. A prerelease (`1.2.3-rc.1`) goes to npm's `next`
 * tag (never `latest`), is a pre-release on PyPI by its version (`1.2.3rc1`), and a GitHub
 * prerelease.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import type { ReleaseArtifacts } from "./artifacts";
import { pythonReleaseTools } from "./python-tools";
import { run } from "./run";

/** The registries, in the order a release publishes to them: the plugin first, so no SDK ever asks for a plugin not yet out. */
export const REGISTRIES = ["github", "go", "pypi", "npm"] as const;
export type Registry = (typeof REGISTRIES)[number];

export interface ReleaseTargets {
  /** An npm registry and a token that may publish to it. */
  readonly npm: { readonly registry: string; readonly token: string };
  /**
   * A PyPI upload URL (twine's `--repository-url`) and its credentials (`__token__` and a token on
   * PyPI), and its simple index (`https://pypi.org/simple/`), asked what is already there.
   */
  readonly pypi: { readonly uploadUrl: string; readonly indexUrl: string; readonly username: string; readonly password: string };
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

/** What one registry got: the files or names published now, and those it already had. */
export interface PublishReport {
  readonly registry: Registry;
  readonly published: readonly string[];
  readonly skipped: readonly string[];
}

/** A version with a semver prerelease part (`1.2.3-rc.1`). */
export const isPrerelease = (version: string): boolean => version.includes("-");

/** The npm dist-tag a version goes to: `next` for a prerelease, so `npm install <name>` never takes one. */
export const npmDistTag = (version: string): string => (isPrerelease(version) ? "next" : "latest");

/** npm publish of each tarball not in the registry yet, authenticated by a userconfig of this run holding the token. */
async function publishNpm(artifacts: ReleaseArtifacts, target: ReleaseTargets["npm"]): Promise<PublishReport> {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-npmrc-"));
  const report = { registry: "npm" as const, published: [] as string[], skipped: [] as string[] };
  try {
    const npmrc = path.join(config, ".npmrc");
    const host = target.registry.replace(/^https?:/, "").replace(/\/?$/, "/");
    // The token is read from the environment by npm (`${NPM_PUBLISH_TOKEN}`), not written here.
    fs.writeFileSync(npmrc, `registry=${target.registry}\n${host}:_authToken=\${NPM_PUBLISH_TOKEN}\n`, { mode: 0o600 });
    const env = { ...process.env, NPM_PUBLISH_TOKEN: target.token, npm_config_userconfig: npmrc };
    for (const [name, tarball] of [
      ["pulumi-messaging", artifacts.npm.root],
      ["@pulumi-messaging/messaging", artifacts.npm.sdk],
    ] as const) {
      const spec = `${name}@${artifacts.version}`;
      const there = await run("npm", ["view", spec, "version", "--registry", target.registry, "--loglevel=silent"], { env }).catch(
        () => "",
      );
      if (there.trim() === artifacts.version) {
        report.skipped.push(spec);
        continue;
      }
      await run(
        "npm",
        [
          "publish",
          tarball,
          "--registry",
          target.registry,
          "--access",
          "public",
          "--tag",
          npmDistTag(artifacts.version),
          "--loglevel=error",
        ],
        { env },
      );
      report.published.push(spec);
    }
  } finally {
    fs.rmSync(config, { recursive: true, force: true });
  }
  return report;
}

/** The files of a project the simple index lists (PEP 503: the name normalized, one link a file). */
async function indexedFiles(indexUrl: string, project: string): Promise<Set<string>> {
  const response = await fetch(new URL(`${project.toLowerCase().replace(/[-_.]+/g, "-")}/`, indexUrl));
  if (response.status === 404) return new Set();
  if (!response.ok) throw new Error(`${indexUrl}: ${response.status} for ${project}`);
  return new Set([...(await response.text()).matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1].trim()));
}

/** twine upload of the wheel and sdist that the index does not list yet. */
async function publishPython(artifacts: ReleaseArtifacts, target: ReleaseTargets["pypi"]): Promise<PublishReport> {
  const listed = await indexedFiles(target.indexUrl, "pulumi_messaging");
  const files = [artifacts.python.wheel, artifacts.python.sdist];
  const missing = files.filter((file) => !listed.has(path.basename(file)));
  if (missing.length) {
    const tools = await pythonReleaseTools();
    const env = { ...process.env, TWINE_USERNAME: target.username, TWINE_PASSWORD: target.password, TWINE_NON_INTERACTIVE: "1" };
    await run(path.join(tools, "twine"), ["upload", "--disable-progress-bar", "--repository-url", target.uploadUrl, ...missing], { env });
  }
  return {
    registry: "pypi",
    published: missing.map((file) => path.basename(file)),
    skipped: files.filter((file) => !missing.includes(file)).map((file) => path.basename(file)),
  };
}

async function publishGo(artifacts: ReleaseArtifacts, target: ReleaseTargets["go"]): Promise<PublishReport> {
  const name = `${artifacts.go.module}@${artifacts.go.version}`;
  if ("proxyDir" in target) {
    const relative = path.relative(artifacts.go.proxyDir, artifacts.go.zip);
    if (fs.existsSync(path.join(target.proxyDir, relative))) return { registry: "go", published: [], skipped: [name] };
    fs.cpSync(artifacts.go.proxyDir, target.proxyDir, { recursive: true });
    return { registry: "go", published: [name], skipped: [] };
  }
  // A pushed tag is the published module: the module proxy serves it from then on, and it can never change.
  const remote = await run("git", ["ls-remote", "--tags", "origin", `refs/tags/${artifacts.go.tag}`]);
  if (remote.trim()) return { registry: "go", published: [], skipped: [artifacts.go.tag] };
  await run("git", ["tag", artifacts.go.tag]);
  await run("git", ["push", "origin", artifacts.go.tag]);
  return { registry: "go", published: [artifacts.go.tag], skipped: [] };
}

const sha256 = (file: string): string => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

async function publishPlugins(artifacts: ReleaseArtifacts, target: ReleaseTargets["plugins"]): Promise<PublishReport> {
  const files = [...artifacts.release.archives, artifacts.release.checksums];
  const report = { registry: "github" as const, published: [] as string[], skipped: [] as string[] };
  if ("dir" in target) {
    fs.mkdirSync(target.dir, { recursive: true });
    for (const file of files) {
      const there = path.join(target.dir, path.basename(file));
      if (fs.existsSync(there)) {
        if (sha256(there) !== sha256(file)) throw new Error(`${there} is published with other bytes: a release's files never change`);
        report.skipped.push(path.basename(file));
        continue;
      }
      fs.copyFileSync(file, there);
      report.published.push(path.basename(file));
    }
    return report;
  }
  const tag = `v${artifacts.version}`;
  const repository = target.githubRelease.repository;
  const existing = await run("gh", ["release", "view", tag, "--repo", repository, "--json", "assets"]).then(
    (json) => new Set((JSON.parse(json) as { assets: Array<{ name: string }> }).assets.map((asset) => asset.name)),
    () => undefined,
  );
  if (!existing) {
    const prerelease = isPrerelease(artifacts.version) ? ["--prerelease"] : [];
    await run("gh", [
      "release",
      "create",
      tag,
      "--repo",
      repository,
      "--title",
      tag,
      "--generate-notes",
      "--verify-tag",
      ...prerelease,
      ...files,
    ]);
    return { ...report, published: files.map((file) => path.basename(file)) };
  }
  // A release half made by a failed run: upload what is missing, never replace what is there.
  const missing = files.filter((file) => !existing.has(path.basename(file)));
  if (missing.length) await run("gh", ["release", "upload", tag, "--repo", repository, ...missing]);
  return { ...report, published: missing.map((file) => path.basename(file)), skipped: [...existing] };
}

/** Publishes to one registry what it does not hold yet. */
export function publishTo(registry: Registry, artifacts: ReleaseArtifacts, targets: ReleaseTargets): Promise<PublishReport> {
  switch (registry) {
    case "github":
      return publishPlugins(artifacts, targets.plugins);
    case "go":
      return publishGo(artifacts, targets.go);
    case "pypi":
      return publishPython(artifacts, targets.pypi);
    case "npm":
      return publishNpm(artifacts, targets.npm);
  }
}

/** Publishes to every registry, in {@link REGISTRIES}' order; what each already held is skipped. */
export async function publish(artifacts: ReleaseArtifacts, targets: ReleaseTargets): Promise<PublishReport[]> {
  const reports: PublishReport[] = [];
  for (const registry of REGISTRIES) reports.push(await publishTo(registry, artifacts, targets));
  return reports;
}
