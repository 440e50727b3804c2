/**
 * examples/go, built with the tests' driver beside it (test/languages/go/inline_program.go): a
 * scratch copy of the example, the SDK's `replace` pointed at this repository's sdk/go, and
 * `go build`. The binary is the example itself, and with `--inline-request <file>` runs one
 * operation on the example's `program` as an Automation API inline program.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";

export const SDK_MODULE = "github.com/pulumi-messaging/pulumi-messaging/sdk/go";

export interface GoExample {
  /** The project directory (Pulumi.yaml, main.go, the driver, go.mod). */
  readonly dir: string;
  /** The stack's runner (`StackOptions.inlineRunner`). */
  readonly runner: (requestFile: string) => readonly [string, ...string[]];
}

function go(args: readonly string[], cwd: string): string {
  return execFileSync("go", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GOFLAGS: "-mod=mod" },
  });
}

/** Copies examples/go into `parent`, adds the driver and builds it. */
export function buildGoExample(parent: string): GoExample {
  const dir = fs.mkdtempSync(path.join(parent, "messaging-go-"));
  fs.cpSync(path.join(REPO_ROOT, "examples", "go"), dir, { recursive: true });
  fs.copyFileSync(path.join(__dirname, "go", "inline_program.go"), path.join(dir, "inline_program.go"));
  go(["mod", "edit", `-replace=${SDK_MODULE}=${path.join(REPO_ROOT, "sdk", "go")}`], dir);
  // The driver imports the Automation API, which the example alone does not need.
  go(["mod", "tidy"], dir);
  const binary = path.join(dir, "bin", "messaging-go");
  go(["build", "-o", binary, "."], dir);
  return { dir, runner: (requestFile) => [binary, "--inline-request", requestFile] };
}
