/**
 * The committed SDKs (sdk/) are what `npm run sdk:generate` writes today, as
 * test/generated/ holds the wire types and sdk/schema.json to their generators. Two checks, for cost:
 * - the schema the SDKs were generated from (sdk/schema.json, written by the generator) is the
 *   one the packed plugin serves now: 1 s, no Go; it fails whenever the schema changed and the
 *   SDKs were not regenerated;
 * - the generator itself, run into a scratch directory: every file the same, none missing, none
 *   extra. It catches what the first cannot (a hand edit, another Pulumi release's generators)
 *   and needs Go: 7 s with Go's build cache warm, about 2 minutes cold. With CI=true a missing Go
 *   fails the tier's set-up; elsewhere the check is skipped saying why.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pluginArchive } from "../support/plugin-archive";
import { PLUGIN_DOWNLOAD_URL } from "../../plugin/schema";
import { REPO_ROOT } from "../../scripts/repo-root";
import { startProviderPlugin } from "../support/provider-plugin";
import { requireBuild, withoutMessagingEnv } from "../support/environment";
import { describeLanguage, SDK_DIR } from "./toolchains";
import { goDiagnostics } from "../support/go-output";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-sdk-fresh-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir`, relative, sorted. */
function files(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(dir, entry)).isFile()).sort();
}

/**
 * The files of sdk/ that git would commit: what its .gitignore files leave out (a build's
 * `*.egg-info`, `bin/`, `node_modules/`, made by pip or npm in the folder) is not the generator's.
 */
function committable(dir: string): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "."], { cwd: dir, encoding: "utf8" });
  return listed
    .split("\0")
    .filter((file) => file && fs.existsSync(path.join(dir, file)))
    .sort();
}

test("sdk/schema.json is the schema the packed plugin serves (else: npm run sdk:generate)", async () => {
  requireBuild();
  const plugin = await pluginArchive(scratch);
  const started = await startProviderPlugin(plugin.executable, {
    cwd: plugin.directory,
    env: withoutMessagingEnv(),
  });
  try {
    const committed = JSON.parse(fs.readFileSync(path.join(SDK_DIR, "schema.json"), "utf8"));
    expect(committed).toEqual(await started.getSchema());
  } finally {
    await started.close();
  }
});

describeLanguage("go")("npm run sdk:generate", () => {
  test("writes exactly the committed sdk/ (else: run it and commit the result)", () => {
    requireBuild();
    const out = path.join(scratch, "sdk");
    const generated = spawnSync(
      "go",
      ["run", ".", "-out", out, "--", process.execPath, path.join(REPO_ROOT, "dist", "plugin", "main.js")],
      { cwd: path.join(REPO_ROOT, "scripts", "pulumi-cli", "sdkgen"), encoding: "utf8" },
    );
    expect(goDiagnostics(generated.stderr)).toBe("");
    expect(generated.status).toBe(0);
    // Its first line names the generators' Pulumi release, its module's pin (the floors' choice, not the CLI's).
    const pinned = /^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 (\S+)/m.exec(
      fs.readFileSync(path.join(REPO_ROOT, "scripts", "pulumi-cli", "sdkgen", "go.mod"), "utf8"),
    )?.[1];
    expect(generated.stdout.split("\n")[0]).toBe(`sdkgen: Pulumi ${pinned} code generators (github.com/pulumi/pulumi/pkg/v3)`);

    expect(committable(SDK_DIR)).toEqual(files(out));
    const stale = files(out).filter((file) => !fs.readFileSync(path.join(out, file)).equals(fs.readFileSync(path.join(SDK_DIR, file))));
    expect(stale).toEqual([]);
  });
});

test("each SDK names the plugin's download URL, so the engine can install the plugin by itself", () => {
  const server = { resource: true, name: "messaging", version: expect.any(String), server: PLUGIN_DOWNLOAD_URL };
  for (const file of ["python/pulumi_messaging/pulumi-plugin.json", "go/messaging/pulumi-plugin.json"])
    expect(JSON.parse(fs.readFileSync(path.join(SDK_DIR, file), "utf8"))).toEqual(server);
  expect(JSON.parse(fs.readFileSync(path.join(SDK_DIR, "nodejs", "package.json"), "utf8")).pulumi).toEqual(server);
});
