/**
 * The floor matrix's versions: each generated SDK at its floor (the oldest Pulumi SDK it is
 * declared to work with, plugin/schema.ts `SDK_FLOORS` and sdk/go/go.mod) and at the newest this
 * project tests, with the toolchain a user of each has. test/languages/floors.test.ts deploys
 * each example with them; docs/languages.md's "Floors" table and the README's Supported line say
 * the same, and test/docs/floors-doc.test.ts holds them to it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_FLOORS } from "../../plugin/schema";
import { REPO_ROOT } from "../../scripts/repo-root";

/** sdk/v3's release required by sdk/go/go.mod (written by scripts/pulumi-cli/sdkgen's `goSDKFloor`), and its go directive. */
export function goFloor(): { sdk: string; go: string } {
  const mod = fs.readFileSync(path.join(REPO_ROOT, "sdk", "go", "go.mod"), "utf8");
  return {
    sdk: /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)$/m.exec(mod)![1],
    go: /^go (\S+)$/m.exec(mod)![1],
  };
}

/** Each language's floor and newest, and the toolchain each runs with. */
export const MATRIX = {
  nodejs: {
    floor: { pulumi: SDK_FLOORS.nodejs, node: "20" },
    // npm's latest @pulumi/pulumi when this was written; it declares Node.js 22 or later.
    newest: { pulumi: "3.276.0", node: "22" },
  },
  python: {
    // Python 3.11 is the interpreter these machines have (3.231.0 declares 3.10 or later; 3.10 itself was not run here).
    floor: { pulumi: SDK_FLOORS.python.pulumi, python: "3.11" },
    // PyPI's newest `pulumi` when this was written (test/languages/prepare-toolchains.js's).
    newest: { pulumi: "3.272.0", python: "3.11" },
  },
  go: {
    // Go's own toolchain of the go directive, fetched by GOTOOLCHAIN from the module proxy.
    floor: { toolchain: "go1.24.0" },
    // examples/go's go.mod (the CLI's release) and this machine's Go.
    newest: { toolchain: "local" },
  },
} as const;
