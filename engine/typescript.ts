/**
 * TypeScript programs as `pulumi up` runs them: the Node.js language host registers ts-node
 * with the project's TypeScript, run.ts's defaults (target ES2020; module and
 * moduleResolution `nodenext` from TypeScript 4.7, else `commonjs`/`node`) overridden by the
 * project's tsconfig.json, and type checking on unless `PULUMI_NODEJS_TRANSPILE_ONLY` or the
 * tsconfig's `noCheck` says otherwise (sdk/nodejs/cmd/run/run.ts). ts-node reports the
 * diagnostics of the files it compiles (the program's own, not declaration files), minus
 * the codes it ignores by default (6059, 18002, 18003), as "⨯ Unable to compile TypeScript".
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const IGNORED_DIAGNOSTICS = new Set([6059, 18002, 18003]);

/** Type-checks the program and registers the `.ts` loader; returns the error the CLI would print, if any. */
export function loadTypeScript(projectRequire: NodeRequire, projectDir: string, main: string): string | undefined {
  const ts = projectRequire("typescript");
  const tsconfigPath = path.resolve(projectDir, process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? "tsconfig.json");
  const tsconfig = fs.existsSync(tsconfigPath) ? (ts.readConfigFile(tsconfigPath, ts.sys.readFile).config?.compilerOptions ?? {}) : {};
  const [major, minor] = String(ts.version).split(".").map(Number);
  const nodeNext = major > 4 || (major === 4 && minor >= 7);
  const { options } = ts.convertCompilerOptionsFromJson(
    {
      target: "ES2020",
      module: nodeNext ? "nodenext" : "commonjs",
      moduleResolution: nodeNext ? "nodenext" : "node",
      sourceMap: true,
      ...tsconfig,
    },
    projectDir,
  );
  const transpileOnlyEnv = process.env.PULUMI_NODEJS_TRANSPILE_ONLY;
  const transpileOnly = transpileOnlyEnv ? transpileOnlyEnv === "true" : options.noCheck === true;

  require.extensions[".ts"] = (module: any, filename: string) => {
    const { outputText } = ts.transpileModule(fs.readFileSync(filename, "utf8"), {
      fileName: filename,
      // Executed as CommonJS, as ts-node does for a package without `"type": "module"`.
      compilerOptions: { ...options, module: ts.ModuleKind.CommonJS, sourceMap: false, inlineSourceMap: false },
    });
    module._compile(outputText, filename);
  };
  if (transpileOnly) return undefined;
  const entry = projectRequire.resolve(main);
  if (!entry.endsWith(".ts")) return undefined;
  return cached(projectDir, entry, options, ts.version, () => typeCheck(ts, entry, options));
}

function typeCheck(ts: any, entry: string, options: object): string | undefined {
  const program = ts.createProgram([entry], options);
  const own = program.getSourceFiles().filter((file: any) => !file.isDeclarationFile && !file.fileName.includes("/node_modules/"));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...own.flatMap((file: any) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ].filter((diagnostic: any) => !IGNORED_DIAGNOSTICS.has(diagnostic.code));
  if (diagnostics.length === 0) return undefined;
  const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => path.dirname(entry), getNewLine: () => "\n" };
  return `⨯ Unable to compile TypeScript:\n${ts.formatDiagnostics(diagnostics, host).trimEnd()}`;
}

/**
 * Type checking costs seconds per run; its answer depends only on the sources, the
 * compiler options and the installed declarations, so it is remembered under their digest.
 */
function cached(projectDir: string, entry: string, options: object, version: string, check: () => string | undefined): string | undefined {
  // Paths relative to their root, so copies of one project in other directories share an answer.
  const relative = (value: unknown): unknown => JSON.parse(JSON.stringify(value).split(projectDir).join("<project>"));
  const digest = createHash("sha256").update(JSON.stringify([version, relative(options), path.relative(projectDir, entry)]));
  // This model's own code is part of the answer: a change to how it checks must not reuse old results.
  digest.update(fs.readFileSync(__filename));
  const visit = (root: string, dir: string): void => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, item.name);
      if (item.isDirectory() && !item.isSymbolicLink()) {
        if (item.name === "node_modules" || item.name.startsWith(".")) continue;
        visit(root, full);
      } else if (item.isFile() && /\.(ts|json)$/.test(item.name)) {
        digest.update(path.relative(root, full)).update(fs.readFileSync(full));
      }
    }
  };
  visit(projectDir, projectDir);
  // The installed declarations the program compiles against: this package's and the SDK's version.
  for (const name of ["pulumi-messaging", "@pulumi/pulumi"]) {
    const installed = path.join(projectDir, "node_modules", name);
    if (!fs.existsSync(installed)) continue;
    const real = fs.realpathSync(installed);
    if (name === "pulumi-messaging") visit(real, real);
    else digest.update(fs.readFileSync(path.join(real, "package.json")));
  }
  const file = path.join(os.tmpdir(), "pulumi-messaging-local-engine-typecheck", digest.digest("hex"));
  if (fs.existsSync(file)) {
    const text = fs.readFileSync(file, "utf8");
    return text === "" ? undefined : text;
  }
  const result = check();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, result ?? "");
  return result;
}
