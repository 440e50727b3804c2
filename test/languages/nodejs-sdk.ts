/**
 * sdk/nodejs compiled as a user's build would: a scratch copy with node_modules holding the
 * @pulumi/pulumi its package.json requires (the tier's set-up installs it once into the cache),
 * `tsc` strict with the SDK's own tsconfig, and the package.json beside the output in `bin/`, as
 * Pulumi's providers publish their SDKs (and `npm run sdk:pack` packs it).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";
import { nodeSdkDependencies } from "./toolchains";

const TSC = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");

/** What `tsc` said, and the compiled package (`bin/`, with its package.json) when it compiled. */
export interface CompiledSdk {
  readonly ok: boolean;
  readonly diagnostics: string;
  readonly packageDir: string;
}

/** Copies `source` (sdk/nodejs by default) into `parent` and compiles it, strict, against `dependencies` (a node_modules). */
export function compileNodejsSdk(
  parent: string,
  source = path.join(REPO_ROOT, "sdk", "nodejs"),
  dependencies: string = nodeSdkDependencies(),
): CompiledSdk {
  const dir = fs.mkdtempSync(path.join(parent, "sdk-nodejs-"));
  fs.cpSync(source, dir, { recursive: true });
  fs.symlinkSync(dependencies, path.join(dir, "node_modules"), "junction");
  let diagnostics = "";
  let ok = true;
  try {
    execFileSync(process.execPath, [TSC, "-p", dir, "--strict"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    ok = false;
    diagnostics = String((error as { stdout?: string }).stdout ?? error);
  }
  const packageDir = path.join(dir, "bin");
  if (ok) fs.copyFileSync(path.join(dir, "package.json"), path.join(packageDir, "package.json"));
  return { ok, diagnostics, packageDir };
}
