/**
 * A plugin archive (`.tar.gz`) of a directory's files, cached by those files' names, modes and
 * bytes: gzip of a standalone executable is seconds of CPU, and a test run packs the same plugin
 * several times (once for the run's stacks, every platform for the archive test and again for the
 * local release).
 */
import { execFileSync } from "node:child_process";
import { createHash, type Hash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRoot, keepNewest, touch } from "./node-runtime";

// Archives kept: a few builds of every platform; the standalone ones are about 40 MB each.
const KEPT = 16;

/** Writes the archive of `dir` (its files at the archive's root) to `archive`. */
export function writeArchive(dir: string, archive: string): void {
  const cached = path.join(cacheRoot(), "plugin-archives", `${contentKey(dir)}.tar.gz`);
  if (!fs.existsSync(cached)) {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    const staging = `${cached}.tmp-${process.pid}`;
    execFileSync("tar", ["-czf", staging, "-C", dir, "."]);
    fs.renameSync(staging, cached);
    keepNewest(path.dirname(cached), KEPT, (name) => name.endsWith(".tar.gz"));
  } else {
    touch(cached);
  }
  fs.copyFileSync(cached, archive);
}

function contentKey(dir: string): string {
  const hash = createHash("sha256");
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
  for (const file of files) {
    const stat = fs.statSync(path.join(dir, file));
    hash.update(`${file}\0${stat.isDirectory() ? "dir" : (stat.mode & 0o777).toString(8)}\0`);
    if (stat.isFile()) hashFile(hash, path.join(dir, file));
  }
  return hash.digest("hex").slice(0, 24);
}

// In pieces: a standalone executable is about 100 MB, which need not sit in memory to be hashed.
function hashFile(hash: Hash, file: string): void {
  const piece = Buffer.allocUnsafe(1024 * 1024);
  const fd = fs.openSync(file, "r");
  try {
    for (let read = fs.readSync(fd, piece); read > 0; read = fs.readSync(fd, piece)) hash.update(piece.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
}
