/**
 * docs/languages.md, the per-language guide: each program in it is its example file, word for
 * word (the languages tier deploys those files: test/languages), every `npm run` script it names
 * exists, and the package names, module path and file names it gives are those of the
 * generated SDKs at the package's version.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";

const DOC = "docs/languages.md";
const text = fs.readFileSync(path.join(REPO_ROOT, DOC), "utf8");
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const version = (JSON.parse(read("package.json")) as { version: string }).version;

/** Fenced blocks, each with the `<!-- docs-test: file … -->` marker right before it, if any. */
const blocks = [...text.matchAll(/(?:<!-- docs-test: file (\S+) -->\n\n)?^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({
  file: match[1],
  language: match[2],
  code: match[3],
}));

test("each program block is its example file, and the three examples are there", () => {
  const programs = blocks.filter((block) => block.file);
  for (const block of programs) expect(block.code).toBe(read(block.file!));
  expect(programs.map((block) => `${block.language} ${block.file}`)).toEqual([
    "python examples/python/__main__.py",
    "go examples/go/main.go",
    "ts examples/typescript-sdk/index.ts",
  ]);
  // Every other block is commands.
  expect(blocks.filter((block) => !block.file).map((block) => block.language)).toEqual(blocks.filter((b) => !b.file).map(() => "sh"));
});

test("the npm scripts it names exist", () => {
  const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
  const named = [...new Set([...text.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]))];
  expect(named.filter((name) => !(name in scripts))).toEqual([]);
  expect(named).toEqual(expect.arrayContaining(["sdk:generate", "sdk:pack", "plugin:pack", "test:languages"]));
});

test("names, module path and file names are the generated SDKs' at the package's version", () => {
  const npm = JSON.parse(read("sdk/nodejs/package.json")) as { name: string; version: string };
  const python = /^\s*name = "([^"]+)"[\s\S]*?^\s*version = "([^"]+)"/m.exec(read("sdk/python/pyproject.toml"))!;
  const goModule = /^module (\S+)/m.exec(read("sdk/go/go.mod"))![1];
  expect([npm.version, python[2]]).toEqual([version, version]);
  expect(text).toContain(`\`${npm.name}\``);
  expect(text).toContain(`${npm.name.replace("@", "").replace("/", "-")}-${version}.tgz`);
  expect(text).toContain(`${python[1]}-${version}-py3-none-any.whl`);
  expect(text).toContain(`go get ${goModule}@v${version}`);
  expect(text).toContain(`pulumi plugin install resource messaging ${version}`);
});
