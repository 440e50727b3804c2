/**
 * Where the real Pulumi CLI is: `scripts/pulumi-path.sh` finds one on PATH or builds the pinned
 * release (once; then it is cached outside the repository). The answer is kept in
 * PULUMI_MESSAGING_CLI_DIR so that child processes and test workers ask only once.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "./repo-root";

export const CLI_DIR_VARIABLE = "PULUMI_MESSAGING_CLI_DIR";

/** The outcome of looking for the CLI: its directory, or why there is none. */
export type CliLookup = { readonly dir: string } | { readonly missing: string };

/**
 * Finds or builds the CLI. The build's progress goes to this process's stderr.
 * @returns the directory holding `pulumi` (the script's last line of output), or why it failed.
 */
export function findPulumiCli(): CliLookup {
  const known = process.env[CLI_DIR_VARIABLE];
  if (known) return { dir: known };
  const result = spawnSync("bash", [path.join(REPO_ROOT, "scripts", "pulumi-path.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const dir = result.stdout?.trim().split("\n").pop();
  if (result.status !== 0 || !dir) {
    return { missing: `scripts/pulumi-path.sh found no Pulumi CLI and could not build one (exit ${result.status})` };
  }
  process.env[CLI_DIR_VARIABLE] = dir;
  return { dir };
}

/** The CLI's directory, or an error saying how to get one. */
export function requirePulumiCli(): string {
  const lookup = findPulumiCli();
  if ("missing" in lookup) throw new Error(`${lookup.missing}: install Pulumi (3.181 or later) on PATH, or Go 1.26 to build it`);
  return lookup.dir;
}
