/**
 * One Pulumi operation on a Node.js program, in a process of its own:
 * `node inline-program.js <request.json>`, started by `stack.ts` with the project as its working
 * directory.
 *
 * The engine is the real `pulumi` CLI. The program reaches it through the Automation API's
 * inline programs (`pulumi up --client=…`), because the Node.js language host cannot be built
 * here (its Go module is not served by the module proxy these machines reach). The program is
 * the project's own `main`, loaded as the host loads it with PULUMI_NODEJS_TRANSPILE_ONLY: the
 * project's TypeScript, transpiled, no type check. One operation a process, as one `pulumi`
 * command is one: a second run in the same process would reuse the cached program module and
 * register nothing.
 *
 * `@pulumi/pulumi` is taken from the project's node_modules, the copy its program and the
 * package use, so the program registers its resources with the runtime the Automation API set up.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { EngineReport, type EngineDiagnostic, type EngineStep } from "./engine-events";

/** What `stack.ts` asks for. */
export interface InlineRequest {
  readonly op: "preview" | "up" | "refresh" | "destroy";
  readonly workDir: string;
  readonly stackName: string;
  /** The directory holding `bin/pulumi`. */
  readonly cliRoot: string;
  readonly env: Record<string, string>;
  readonly options: {
    readonly expectNoChanges?: boolean;
    readonly refresh?: boolean;
    readonly clearPendingCreates?: boolean;
    readonly diff?: boolean;
  };
  /** Where the result is written. */
  readonly resultFile: string;
}

/** What it answers: the engine's summary and steps, its diagnostics, the stack's outputs (secrets flagged). */
export interface InlineResult {
  readonly ok: boolean;
  readonly error?: string;
  readonly resourceChanges?: Record<string, number>;
  readonly outputs?: Record<string, { value: unknown; secret: boolean }>;
  readonly steps: readonly EngineStep[];
  readonly diagnostics: readonly EngineDiagnostic[];
}

function projectMain(workDir: string): string {
  const project = fs.readFileSync(path.join(workDir, "Pulumi.yaml"), "utf8");
  const main = /^main:\s*(\S+)\s*$/m.exec(project)?.[1];
  if (main) return path.resolve(workDir, main);
  for (const candidate of ["index.ts", "index.js"]) {
    if (fs.existsSync(path.join(workDir, candidate))) return path.join(workDir, candidate);
  }
  throw new Error(`${workDir}: no main in Pulumi.yaml and no index.ts or index.js`);
}

/** Loads `.ts` files of the project as the language host does in transpile-only mode. */
function registerTypeScript(workDir: string): void {
  const ts = require(require.resolve("typescript", { paths: [workDir] })) as typeof import("typescript");
  require.extensions[".ts"] = (module, filename) => {
    const source = fs.readFileSync(filename, "utf8");
    const { outputText } = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
    });
    (module as unknown as { _compile(code: string, file: string): void })._compile(outputText, filename);
  };
}

async function run(request: InlineRequest): Promise<InlineResult> {
  const auto = require(require.resolve("@pulumi/pulumi/automation", { paths: [request.workDir] })) as typeof automation;
  const main = projectMain(request.workDir);
  if (main.endsWith(".ts")) registerTypeScript(request.workDir);
  const pulumiCommand = await auto.PulumiCommand.get({ root: request.cliRoot });
  const workspace = await auto.LocalWorkspace.create({
    workDir: request.workDir,
    pulumiCommand,
    envVars: request.env,
    program: async () => require(main),
  });
  const stack = await auto.Stack.select(request.stackName, workspace);
  const report = new EngineReport();
  const onEvent = (event: automation.EngineEvent) => report.add(event);
  const onOutput = (text: string) => process.stdout.write(text);
  // No --show-secrets for the summary the Automation API reads after an operation: a decryption
  // with the stack's passphrase, a fifth of a second of CPU, for values nothing here reads.
  const options = { ...request.options, onOutput, onEvent, color: "never" as const, showSecrets: false };
  const answer = (result: Omit<InlineResult, "steps" | "diagnostics">): InlineResult => ({
    ...result,
    steps: report.steps,
    diagnostics: report.diagnostics,
  });
  try {
    switch (request.op) {
      case "preview": {
        const result = await stack.preview(options);
        return answer({ ok: true, resourceChanges: result.changeSummary as Record<string, number> });
      }
      case "up": {
        const result = await stack.up(options);
        return answer({ ok: true, resourceChanges: result.summary.resourceChanges ?? {}, outputs: result.outputs });
      }
      case "refresh": {
        const result = await stack.refresh(options);
        return answer({ ok: true, resourceChanges: result.summary.resourceChanges ?? {} });
      }
      case "destroy": {
        const result = await stack.destroy(options);
        return answer({ ok: true, resourceChanges: result.summary.resourceChanges ?? {} });
      }
    }
  } catch (error) {
    // The CLI's output already went to stdout; what it said before starting (a locked stack,
    // say) is only in the error's stderr.
    const failure = error as { commandResult?: { code?: number; stderr?: string }; message?: string };
    const result = failure.commandResult;
    if (!result) return answer({ ok: false, error: String(failure.message) });
    const said = (result.stderr ?? "").trim();
    return answer({ ok: false, error: `pulumi ${request.op} failed (${result.code})${said ? `: ${said}` : ""}` });
  }
}

if (require.main === module) {
  const request = JSON.parse(fs.readFileSync(process.argv[2], "utf8")) as InlineRequest;
  run(request).then(
    (result) => fs.writeFileSync(request.resultFile, JSON.stringify(result)),
    (error: unknown) => {
      const result: InlineResult = { ok: false, error: error instanceof Error ? error.stack : String(error), steps: [], diagnostics: [] };
      fs.writeFileSync(request.resultFile, JSON.stringify(result));
    },
  );
}
