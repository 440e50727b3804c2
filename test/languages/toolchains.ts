/**
 * What the languages tier's set-up (prepare-toolchains.js) made for this run: the Python venv
 * with `pulumi` and the generated SDK, the node_modules the nodejs SDK needs, the scratch root;
 * and `describeLanguage`, which skips a language's tests outside CI when its toolchain is
 * missing, saying why (with CI=true the set-up has already failed).
 */
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";
import { lookPath } from "../support/provider-plugin";
import { describeRealEngine } from "../support/real-engine";

export const SDK_DIR = path.join(REPO_ROOT, "sdk");

/** `describe` for a language's tests, or `describe.skip` with the reason printed when its toolchain is missing. */
export function describeLanguage(language: "python" | "go" | "nodejs"): jest.Describe {
  const missing = (process.env.PULUMI_MESSAGING_LANGUAGES_SKIP ?? "")
    .split("; ")
    .find((reason) => reason.startsWith(language === "python" ? "python3" : language === "go" ? "go " : "node"));
  if (!missing) return describeRealEngine;
  process.stderr.write(`languages tier: ${language} skipped: ${missing}\n`);
  return describe.skip;
}

function required(variable: string): string {
  const value = process.env[variable];
  if (!value)
    throw new Error(
      `${variable} is not set: test/languages/prepare-toolchains.js sets it (run the tier with jest --selectProjects languages)`,
    );
  return value;
}

/** The Python of this run's venv: `pulumi` from PyPI and the SDK of sdk/python installed. */
export const pythonExecutable = (): string => required("PULUMI_MESSAGING_PYTHON");

/** node_modules holding the @pulumi/pulumi the nodejs SDK requires, and @types/node. */
export const nodeSdkDependencies = (): string => required("PULUMI_MESSAGING_NODE_SDK_DEPS");

/** A scratch directory of this run, removed with the run's other temporary files. */
export const languagesRoot = (): string => required("PULUMI_MESSAGING_LANGUAGES_ROOT");

/**
 * The language host `pulumi` would start for `pulumi up` in a project of this runtime
 * (`pulumi-language-<runtime>` beside the CLI or on PATH), or undefined. This project's CLI has
 * none but YAML's (docs/real-engine.md): there, the tests run the programs inline only, and say so.
 */
export function languageHost(runtime: "python" | "go"): string | undefined {
  const cliDir = process.env.PULUMI_MESSAGING_CLI_DIR ?? "";
  return lookPath(`pulumi-language-${runtime}`, { PATH: [cliDir, process.env.PATH ?? ""].join(path.delimiter) });
}
