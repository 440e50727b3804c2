/**
 * The docs' program for each language of the provider plugin is its example file, word for
 * word: what a user copies is what the tests deploy (YAML, test/plugin/yaml-program.test.ts)
 * or check against the schema (Python and Go, test/plugin/language-examples.test.ts). The
 * README's excerpt of the Automation API script is the script's own text
 * (examples/automation, deployed by test/engine/automation-example.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/environment";

const plugin = fs.readFileSync(path.join(REPO_ROOT, "docs", "plugin.md"), "utf8");
const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

/** The first fenced block of `language` after `marker` in `text`. */
function blockAfter(text: string, marker: string, language: string): string | undefined {
  const at = text.indexOf(marker);
  if (at < 0) return undefined;
  return new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "m").exec(text.slice(at))?.[1];
}

test.each([
  ["**YAML**", "yaml", "examples/yaml/Pulumi.yaml"],
  ["**Python**", "python", "examples/python/__main__.py"],
  ["**Go**", "go", "examples/go/main.go"],
])("%s: docs/plugin.md's block is %s's example file (%s)", (label, language, file) => {
  expect(blockAfter(plugin, `\n${label} (`, language)).toBe(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"));
});

test("the README's Automation API excerpt is examples/automation/deploy.js's own text", () => {
  const excerpt = blockAfter(readme, "<!-- docs-test: automation excerpt -->", "js");
  expect(excerpt).toMatch(/^async function deploy\(/);
  expect(fs.readFileSync(path.join(REPO_ROOT, "examples", "automation", "deploy.js"), "utf8")).toContain(excerpt);
});
