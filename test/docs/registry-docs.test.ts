/**
 * docs/_index.md and docs/installation-configuration.md, the pages the Pulumi Registry reads for
 * the package's overview and its install and configuration page (the format pulumi-command's
 * docs/ follows: front matter with `title`, `meta_desc` and `layout: package`, Hugo's
 * chooser/choosable shortcodes around one example a language):
 * - every example is the example file of its language, word for word, so what the page shows is
 *   what the tests deploy (examples/python, go and typescript-sdk in the languages tier,
 *   examples/yaml in test/plugin);
 * - every config variable of the schema is in the table, with the environment variable the
 *   provider reads (client/settings.ts), and nothing else is;
 * - the install lines are the README's, which test/languages/new-user.test.ts runs; the config
 *   lines are run by the real CLI in that test too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SETTINGS, type SettingName } from "../../client/settings";
import { REPO_ROOT } from "../support/environment";
import { PLUGIN_DOWNLOAD_URL } from "../../plugin/schema";

const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");

/** The front matter's keys and values. */
function frontMatter(text: string): Record<string, string> {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? "";
  return Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
}

/** The fenced block right after `marker`. */
function blockAfter(text: string, marker: string): string | undefined {
  const at = text.indexOf(marker);
  return at < 0 ? undefined : /```\w*\n([\s\S]*?)^```$/m.exec(text.slice(at))?.[1];
}

describe("docs/_index.md", () => {
  const page = read("docs/_index.md");

  test("has the Registry's front matter", () => {
    expect(frontMatter(page)).toEqual({ title: "Messaging", meta_desc: expect.stringMatching(/.{40,}/), layout: "package" });
  });

  test.each([
    ["typescript", "examples/typescript-sdk/index.ts"],
    ["python", "examples/python/__main__.py"],
    ["go", "examples/go/main.go"],
    ["yaml", "examples/yaml/Pulumi.yaml"],
  ])("the %s example is %s, word for word", (language, file) => {
    expect(page).toContain(`{{< chooser language "typescript,python,go,yaml" >}}`);
    expect(blockAfter(page, `{{% choosable language ${language} %}}`)).toBe(read(file));
  });
});

describe("docs/installation-configuration.md", () => {
  const page = read("docs/installation-configuration.md");
  const schema = JSON.parse(read("sdk/schema.json")) as { config: { variables: Record<string, unknown> } };

  test("has the Registry's front matter", () => {
    expect(frontMatter(page)).toEqual({
      title: "Messaging Installation & Configuration",
      meta_desc: expect.stringMatching(/.{40,}/),
      layout: "package",
    });
  });

  test("its table has every config variable of the schema, with the environment variable the provider reads", () => {
    const table = page.slice(page.indexOf("<!-- docs-test: config table -->"));
    const rows = [...table.matchAll(/^\| `messaging:(\w+)` +\| ([^|]+?) +\|/gm)].map((row) => [row[1], row[2]]);
    const expected = Object.keys(schema.config.variables).map((key) => {
      const setting = (Object.keys(SETTINGS) as SettingName[]).find((name) => SETTINGS[name].config === `messaging:${key}`);
      return [key, setting ? `\`${SETTINGS[setting].env}\`` : "none (config only)"];
    });
    expect(rows.sort()).toEqual(expected.sort());
  });

  test("its install lines are the README's (which the new user's test runs)", () => {
    const readme = read("README.md");
    const lines = blockAfter(page, "<!-- docs-test: install lines -->")!.trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(readme).toContain(line);
  });
});

test("YAML programs name the plugin's version and release in each resource's options (examples/yaml, the README's quick start)", () => {
  const version = JSON.parse(read("package.json")).version as string;
  for (const program of [
    read("examples/yaml/Pulumi.yaml"),
    /<!-- docs-test: yaml quick start -->\n\n```yaml\n([\s\S]*?)```/.exec(read("README.md"))![1],
  ]) {
    const resources = program.split("\n").filter((line) => /^ {4}type: messaging:index:/.test(line)).length;
    expect(resources).toBeGreaterThan(0);
    expect(program.split(`      version: ${version}\n      pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}\n`).length - 1).toBe(resources);
  }
});
