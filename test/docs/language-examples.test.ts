/**
 * The README's program for each language of the provider plugin is its example file, word
 * for word: what a user copies is what the tests deploy (YAML, test/plugin/yaml-program.test.ts)
 * or check against the schema (Python and Go, test/plugin/language-examples.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/environment";

const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

test.each([
  ["**YAML**", "yaml", "examples/yaml/Pulumi.yaml"],
  ["**Python**", "python", "examples/python/__main__.py"],
  ["**Go**", "go", "examples/go/main.go"],
])("%s: the README's block is %s's example file (%s)", (label, language, file) => {
  const section = readme.slice(readme.indexOf(`\n${label} (`));
  const block = new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "m").exec(section)?.[1];
  expect(block).toBe(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"));
});
