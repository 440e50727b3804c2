/**
 * Real registry servers on 127.0.0.1, each on a free port, for `npm run release:local` and the
 * new user's test (test/languages/new-user.test.ts):
 * - npm: verdaccio (./verdaccio-server.ts); our two packages are served only from what was
 *   published to it, everything else is fetched from the npm registry this machine uses;
 * - PyPI: pypiserver (./pypi-server.py), from the release tools' venv;
 * - Go: a directory in the module proxy's layout, for `GOPROXY=file://…`;
 * - the release location: a plain HTTP server of a directory laid out as GitHub's release
 *   downloads, `/<owner>/<repo>/releases/download/v<version>/<archive>`.
 * `close()` stops them all, and removes their folders.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { REPO_ROOT } from "../repo-root";
import { pythonReleaseTools } from "./python-tools";
import type { ReleaseTargets } from "./publish";
import { run } from "./run";

/** The repository's owner and name, as the schema's pluginDownloadURL names them. */
export const RELEASE_REPOSITORY = "pulumi-messaging/pulumi-messaging";

export interface LocalRegistries {
  /** verdaccio's URL, e.g. `http://127.0.0.1:4873/`. */
  readonly npmRegistry: string;
  /** pypiserver's simple index, for `pip install --index-url`. */
  readonly pypiIndex: string;
  /** The Go module proxy directory (`GOPROXY=file://<it>`). */
  readonly goProxyDir: string;
  /** The release location's base: `<it>/<owner>/<repo>/releases/download/v<version>/<archive>`. */
  readonly releaseBase: string;
  /** Where publish() puts each artifact. */
  readonly targets: ReleaseTargets;
  /** `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES`: the schema's github:// URL sent to the local release location. */
  readonly pluginDownloadOverride: string;
  close(): Promise<void>;
}

/** Starts `command` and resolves with the port it prints alone on its first line of stdout. */
function startPrintingPort(command: string, args: readonly string[], name: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", (line) => {
      const port = Number(line.trim());
      if (Number.isInteger(port) && port > 0) resolve({ child, port });
      else reject(new Error(`${name} printed ${JSON.stringify(line)} instead of its port:\n${stderr}`));
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before printing its port:\n${stderr}`)));
  });
}

/** Stops a child we started, by its pid, and waits for it. */
function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** A static file server of `root` on 127.0.0.1, port 0. */
function staticServer(root: string): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const file = path.join(root, path.normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end("not found\n");
      return;
    }
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

const portOf = (server: http.Server): number => (server.address() as { port: number }).port;

/** verdaccio's config: our packages from what is published here only, the rest from `uplink`. */
function verdaccioConfig(root: string, uplink: string): string {
  return [
    `storage: ${path.join(root, "storage")}`,
    "auth:",
    "  htpasswd:",
    `    file: ${path.join(root, "htpasswd")}`,
    "uplinks:",
    "  upstream:",
    `    url: ${uplink}`,
    "    timeout: 60s",
    "packages:",
    // Never proxied: a package of the same name elsewhere must not be served in place of ours.
    "  'pulumi-messaging':",
    "    access: $all",
    "    publish: $authenticated",
    "  '@pulumi-messaging/*':",
    "    access: $all",
    "    publish: $authenticated",
    "  '**':",
    "    access: $all",
    "    proxy: upstream",
    "server:",
    "  keepAliveTimeout: 60",
    "log: { type: stdout, format: pretty, level: error }",
    "",
  ].join("\n");
}

/** A user of the local verdaccio, registered through npm's own login endpoint; its token. */
async function verdaccioToken(registry: string): Promise<string> {
  const response = await fetch(new URL("-/user/org.couchdb.user:release", registry), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-local", type: "user", roles: [] }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token)
    throw new Error(`verdaccio did not register the release user: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** Starts the four registries in a scratch folder. */
export async function startLocalRegistries(): Promise<LocalRegistries> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-registries-"));
  const children: ChildProcess[] = [];
  let release: http.Server | undefined;
  const close = async (): Promise<void> => {
    await Promise.all(children.map(stop));
    if (release) await new Promise<void>((resolve) => release!.close(() => resolve()));
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    const npmDir = path.join(root, "verdaccio");
    fs.mkdirSync(npmDir);
    const uplink = (await run("npm", ["config", "get", "registry"])).trim() || "https://registry.npmjs.org/";
    fs.writeFileSync(path.join(npmDir, "config.yaml"), verdaccioConfig(npmDir, uplink));
    const verdaccio = await startPrintingPort(
      process.execPath,
      [path.join(REPO_ROOT, "dist", "scripts", "release", "verdaccio-server.js"), path.join(npmDir, "config.yaml")],
      "verdaccio",
    );
    children.push(verdaccio.child);
    const npmRegistry = `http://127.0.0.1:${verdaccio.port}/`;

    const packages = path.join(root, "pypi");
    fs.mkdirSync(packages);
    const tools = await pythonReleaseTools();
    const pypi = await startPrintingPort(
      path.join(tools, "python"),
      [path.join(REPO_ROOT, "scripts", "release", "pypi-server.py"), packages],
      "pypiserver",
    );
    children.push(pypi.child);
    const pypiBase = `http://127.0.0.1:${pypi.port}`;

    const goProxyDir = path.join(root, "goproxy");
    fs.mkdirSync(goProxyDir);

    const releaseRoot = path.join(root, "releases");
    fs.mkdirSync(releaseRoot);
    release = await staticServer(releaseRoot);
    const releaseBase = `http://127.0.0.1:${portOf(release)}`;
    const version = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version as string;
    const downloads = `${RELEASE_REPOSITORY}/releases/download`;

    return {
      npmRegistry,
      pypiIndex: `${pypiBase}/simple/`,
      goProxyDir,
      releaseBase,
      targets: {
        npm: { registry: npmRegistry, token: await verdaccioToken(npmRegistry) },
        pypi: { uploadUrl: `${pypiBase}/`, indexUrl: `${pypiBase}/simple/`, username: "release", password: "release-local" },
        go: { proxyDir: goProxyDir },
        plugins: { dir: path.join(releaseRoot, downloads, `v${version}`) },
      },
      // `${VERSION}` is filled in by the engine; the
      // regular expression is the schema's exact URL.
      pluginDownloadOverride: `^github://api\\.github\\.com/${RELEASE_REPOSITORY}$=${releaseBase}/${downloads}/v\${VERSION}`,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
