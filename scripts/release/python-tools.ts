/**
 * The Python tools the release runs, pinned: `build` (wheel and sdist), `twine` (upload) and
 * `pypiserver` (the local PyPI of `npm run release:local`). pip-installed from PyPI into a
 * venv in the cache outside the repository, made once and reused.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRoot } from "./plugin/node-runtime";
import { run } from "./run";

export const PYTHON_RELEASE_TOOLS = ["build==1.6.1", "twine==7.0.0", "pypiserver==2.4.2", "setuptools==84.2.1", "wheel==0.48.0"];

let made: Promise<string> | undefined;

/** The venv's `bin` folder, made the first time (the marker file is written last); once a process. */
export function pythonReleaseTools(): Promise<string> {
  return (made ??= makeVenv());
}

async function makeVenv(): Promise<string> {
  const key = createHash("sha256").update(PYTHON_RELEASE_TOOLS.join(" ")).digest("hex").slice(0, 12);
  const venv = path.join(cacheRoot(), `python-release-tools-${key}`);
  const marker = path.join(venv, ".complete");
  if (!fs.existsSync(marker)) {
    fs.rmSync(venv, { recursive: true, force: true });
    await run("python3", ["-m", "venv", venv]);
    await run(path.join(venv, "bin", "python"), ["-m", "pip", "install", "--quiet", ...PYTHON_RELEASE_TOOLS]);
    fs.writeFileSync(marker, "");
  }
  return path.join(venv, "bin");
}
