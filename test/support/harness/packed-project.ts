/**
 * Builds a throwaway Pulumi project that uses the package exactly as users install it:
 * the `npm pack` tarball unpacked into its node_modules, next to the other dependencies.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../../scripts/repo-root";

const REPO = REPO_ROOT;

/**
 * Packs the built package (run `npm run build` first) and returns the tarball path. Under
 * the test runner the package is packed once per run (test/pack-once.js): that tarball is
 * returned instead, read-only, and `destination` is not used.
 */
export function packPackage(destination: string): string {
  const stale = process.env.PULUMI_MESSAGING_STALE_BUILD;
  if (stale) throw new Error(stale);
  const packed = process.env.PULUMI_MESSAGING_TARBALL;
  if (packed && fs.existsSync(packed)) return packed;
  const output = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [{ filename }] = JSON.parse(output) as Array<{ filename: string }>;
  return path.join(destination, filename);
}

/**
 * Copies `exampleDir` (Pulumi.yaml, program, package.json) into a new directory, unpacks
 * the tarball as `node_modules/pulumi-messaging`, and links every other dependency from
 * this repository's node_modules (no registry access needed). Returns the directory.
 */
export function createPackedProject(exampleDir: string, options: { tarball?: string; parentDir?: string } = {}): string {
  const parent = options.parentDir ?? os.tmpdir();
  fs.mkdirSync(parent, { recursive: true });
  const dir = fs.mkdtempSync(path.join(parent, "pulumi-messaging-project-"));
  for (const entry of fs.readdirSync(exampleDir)) {
    if (entry === "node_modules") continue;
    fs.cpSync(path.join(exampleDir, entry), path.join(dir, entry), { recursive: true });
  }
  const modules = path.join(dir, "node_modules");
  const target = path.join(modules, "pulumi-messaging");
  fs.mkdirSync(target, { recursive: true });
  const tarball = options.tarball ?? packPackage(dir);
  execFileSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"]);
  for (const entry of fs.readdirSync(path.join(REPO, "node_modules"))) {
    if (entry === "pulumi-messaging" || entry.startsWith(".")) continue;
    fs.symlinkSync(path.join(REPO, "node_modules", entry), path.join(modules, entry), "junction");
  }
  return dir;
}
