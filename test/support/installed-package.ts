/**
 * The package as users install it: the `npm pack` tarball unpacked into a throwaway
 * project's node_modules (by `test/support/harness/packed-project.ts`), keeping only the packages a
 * given kind of user has.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createPackedProject, packPackage } from "./harness/packed-project";
import { requireBuild } from "./environment";

export { createPackedProject, packPackage };

export const REPO = path.resolve(__dirname, "..", "..");

/** A scratch directory holding one packed tarball; `cleanup()` removes it. */
export class PackedTarball {
  readonly root: string;
  readonly tarball: string;

  constructor() {
    requireBuild();
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-package-test-"));
    this.tarball = packPackage(this.root);
  }

  /**
   * A project with `files` (name → content) and the tarball installed. `keep` lists the
   * packages linked into its node_modules besides pulumi-messaging (each with its own
   * dependencies); scoped names such as `@types/node` keep only that package of the scope.
   */
  project(files: Record<string, string>, keep: readonly string[]): string {
    const source = fs.mkdtempSync(path.join(this.root, "source-"));
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(source, name), content);
    const dir = createPackedProject(source, { tarball: this.tarball, parentDir: this.root });
    pruneModules(path.join(dir, "node_modules"), withDependencies(keep));
    return dir;
  }

  cleanup(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** The runtime dependencies of the package, as its package.json declares them. */
/**
 * A `tsconfig.json` a strict user's project may have, as text: ECMAScript modules resolved as Node.js does (`nodenext`),
 * with `extra` (`types`, `lib`, `include` or `files`) added.
 */
export function strictTsconfig(extra: { compilerOptions?: Record<string, unknown>; include?: string[]; files?: string[] }): string {
  const { compilerOptions, ...rest } = extra;
  return JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", ...compilerOptions },
    ...rest,
  });
}

export function packageDependencies(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  return Object.keys(manifest.dependencies ?? {});
}

// `names` and everything they depend on, as installed (hoisted) in this repository.
function withDependencies(names: readonly string[]): Set<string> {
  const all = new Set<string>();
  const visit = (name: string) => {
    if (all.has(name)) return;
    all.add(name);
    const manifest = path.join(REPO, "node_modules", name, "package.json");
    if (!fs.existsSync(manifest)) return;
    const { dependencies = {}, peerDependencies = {} } = JSON.parse(fs.readFileSync(manifest, "utf8"));
    for (const dependency of [...Object.keys(dependencies), ...Object.keys(peerDependencies)]) visit(dependency);
  };
  names.forEach(visit);
  return all;
}

// Removes the links `createPackedProject` made for packages not in `keep` (the links only).
function pruneModules(modules: string, keep: Set<string>): void {
  for (const entry of fs.readdirSync(modules)) {
    if (entry === "pulumi-messaging") continue;
    const link = path.join(modules, entry);
    if (entry.startsWith("@")) {
      const kept = [...keep].filter((name) => name.startsWith(`${entry}/`));
      fs.unlinkSync(link);
      if (kept.length === 0) continue;
      fs.mkdirSync(link);
      for (const name of kept) fs.symlinkSync(path.join(REPO, "node_modules", name), path.join(modules, name), "junction");
    } else if (!keep.has(entry)) {
      fs.unlinkSync(link);
    }
  }
}

/** Runs `node args…` in `cwd`; resolves with the exit code and output (never rejects on a non-zero exit). */
export function runNode(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr });
    });
  });
}
