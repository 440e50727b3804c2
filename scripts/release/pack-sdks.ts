/**
 * `npm run sdk:pack`: the generated SDKs (sdk/, written by `npm run sdk:generate`) as packages a
 * user installs, into dist/sdk/, built as the release builds them (./artifacts.ts): the Python
 * SDK's wheel and sdist, and the nodejs SDK's npm tarball. The Go SDK is not packed: users
 * `go get` its module path (docs/languages.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../repo-root";
import { nodejsSdk, pythonSdk } from "./artifacts";

async function packSdks(): Promise<void> {
  const out = path.join(REPO_ROOT, "dist", "sdk");
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(out, ".work-"));
  try {
    await Promise.all([pythonSdk(work, out), nodejsSdk(work, out)]);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${fs.readdirSync(out).join("\n")}\n`);
}

packSdks().catch((error: unknown) => {
  process.stderr.write(`sdk:pack failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
