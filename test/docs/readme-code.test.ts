/**
 * Every TypeScript and JavaScript code block of README.md, emulator/README.md and docs/*.md, checked
 * against the packed package as users install it: TypeScript blocks are type-checked (strict,
 * the `module`/`moduleResolution` `nodenext` of the current `pulumi new typescript` template,
 * no `skipLibCheck`), and run when marked runnable; JavaScript blocks are parsed. A block
 * that drifts from the code fails here.
 *
 * Markers, HTML comments right before a block (invisible on the rendered page):
 * - `<!-- docs-test: prelude … -->`: code put before the block (the declarations a fragment assumes);
 * - `<!-- docs-test: run -->`: also run it (compiled, in the packed project);
 * - `<!-- docs-test: end-to-end express -->`: the receiver test/docs/quick-path.test.ts runs as is;
 * - `<!-- docs-test: file <path> -->`: a copy of that example file (test/docs/languages-doc.test.ts),
 *   which is compiled where it belongs (the generated SDK's, by the languages tier), not here.
 * docs/cli.md's exit-code table must be the one the commands print (`cli/exit-codes.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { EXIT_CODE_TABLE } from "../../cli/exit-codes";
import { PackedTarball, REPO, packageDependencies, runNode, strictTsconfig } from "../support/installed-package";
import { codeBlocks, type CodeBlock } from "../support/markdown-blocks";

const FILES = [
  "README.md",
  "emulator/README.md",
  ...fs
    .readdirSync(path.join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const BLOCKS = FILES.flatMap(codeBlocks).filter((block) => !block.markers.some((marker) => marker.startsWith("file ")));
const name = (block: CodeBlock) => `${block.file}:${block.line}`;
const fileName = (block: CodeBlock, extension: string) => `${block.file.replace(/\W+/g, "_")}_${block.line}.${extension}`;

let packed: PackedTarball;
let project: string;

beforeAll(() => {
  packed = new PackedTarball();
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "readme-blocks", private: true }),
    "tsconfig.json": strictTsconfig({ compilerOptions: { types: ["node"] }, include: ["*.mts"] }),
  };
  // .mts: ECMAScript modules, so that top-level await compiles as it would in a user's module.
  for (const block of BLOCKS.filter((b) => b.language === "ts")) {
    files[fileName(block, "mts")] = `${block.prelude}\n${block.code}\nexport {};\n`;
  }
  project = packed.project(files, ["@pulumi/pulumi", "@types/node", "express", ...packageDependencies()]);
});

afterAll(() => packed?.cleanup());

describe("README code blocks", () => {
  it("are found: the README's quick start, the docs' blocks, and the README's end-to-end receiver", () => {
    expect(BLOCKS.filter((b) => b.file === "README.md" && b.language === "ts").length).toBeGreaterThan(0);
    expect(BLOCKS.filter((b) => b.file.startsWith("docs/") && b.language === "ts").length).toBeGreaterThan(5);
    expect(BLOCKS.filter((b) => b.file === "emulator/README.md").length).toBeGreaterThan(0);
    expect(BLOCKS.filter((b) => b.markers.includes("end-to-end express"))).toHaveLength(1);
  });

  it("every TypeScript block type-checks against the packed package (nodenext, strict, no skipLibCheck)", async () => {
    const bin = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
    const run = await runNode([bin, "--pretty", "false", "-p", "tsconfig.json"], project);
    const errors = `${run.stdout}${run.stderr}`.split("\n").filter((line) => / error TS\d+/.test(line));
    // Name the README line of each error rather than the generated file's.
    const located = errors.map((line) => {
      const block = BLOCKS.find((b) => line.startsWith(fileName(b, "mts")));
      return block ? `${name(block)} (block line ${line.replace(/^[^(]*\((\d+).*$/, "$1")}): ${line.replace(/^[^:]*: /, "")}` : line;
    });
    expect(located).toEqual([]);
    expect(run.code).toBe(0);
  });

  it.each(BLOCKS.filter((b) => b.language === "js").map((b) => [name(b), b] as const))("%s (JavaScript) parses", async (_name, block) => {
    const file = path.join(project, fileName(block, "js"));
    fs.writeFileSync(file, block.code);
    const run = await runNode(["--check", file], project);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it.each(BLOCKS.filter((b) => b.markers.includes("run")).map((b) => [name(b), b] as const))("%s runs", async (_name, block) => {
    const { outputText } = ts.transpileModule(`${block.prelude}\n${block.code}\nexport {};\n`, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    const file = path.join(project, fileName(block, "mjs"));
    fs.writeFileSync(file, outputText);
    const run = await runNode([file], project);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("docs/cli.md's exit-code table is the one every command prints", () => {
    const readme = fs.readFileSync(path.join(REPO, "docs", "cli.md"), "utf8");
    const table = /<!-- docs-test: exit codes -->\s*\n\s*\| code[^\n]*\n\|[^\n]*\n((?:\|[^\n]*\n)+)/.exec(readme);
    expect(table).not.toBeNull();
    const rows = table![1]
      .trim()
      .split("\n")
      .map((row) => row.split("|").map((cell) => cell.trim()))
      .map(([, code, meaning]) => ({ code: Number(code), meaning }));
    expect(rows).toEqual(EXIT_CODE_TABLE.map(({ code, meaning }) => ({ code, meaning })));
  });
});
