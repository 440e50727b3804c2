/**
 * The README's Supported line and docs/languages.md's Floors table say the SDKs' floors, derived
 * here from where they are set (plugin/schema.ts `SDK_FLOORS`, sdk/go/go.mod) and from what the
 * generated SDKs declare: a floor moved in one place and not the others fails here. The floors
 * themselves are deployed by test/languages/floors.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_FLOORS } from "../../plugin/schema";
import { REPO_ROOT } from "../support/environment";

const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
/** Whitespace (line breaks of the wrapped prose) as single spaces. */
const flat = (text: string): string => text.replace(/\s+/g, " ");
const minor = (version: string): string => version.split(".").slice(0, 2).join(".");

const goMod = read("sdk/go/go.mod");
const GO = {
  sdk: /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)$/m.exec(goMod)![1],
  go: minor(/^go (\S+)$/m.exec(goMod)![1]),
};

test("the generated SDKs declare the floors", () => {
  expect(JSON.parse(read("sdk/nodejs/package.json")).dependencies["@pulumi/pulumi"]).toBe(`^${SDK_FLOORS.nodejs}`);
  const pyproject = read("sdk/python/pyproject.toml");
  expect(pyproject).toContain(`"pulumi>=${SDK_FLOORS.python.pulumi},<4.0.0"`);
  expect(pyproject).toContain(`requires-python = ">=${SDK_FLOORS.python.interpreter}"`);
  expect(GO).toEqual({ sdk: "v3.213.0", go: "1.24" });
});

test("the README's Supported line is derived from them", () => {
  const supported = flat(read("README.md").split("\nSupported: ")[1].split("\n\n")[0]);
  expect(supported).toContain(`TypeScript SDK \`@pulumi/pulumi\` ${minor(SDK_FLOORS.nodejs)} or newer`);
  expect(supported).toContain(
    `Python SDK \`pulumi\` ${minor(SDK_FLOORS.python.pulumi)} or newer, Python ${SDK_FLOORS.python.interpreter} or newer`,
  );
  expect(supported).toContain(`Go SDK \`sdk/v3\` ${GO.sdk} or newer, Go ${GO.go} or newer`);
});

test("docs/languages.md's Floors table and docs/installation-configuration.md say the same", () => {
  const languages = flat(read("docs/languages.md"));
  expect(languages).toContain(`| TypeScript | \`@pulumi/pulumi\` ${SDK_FLOORS.nodejs} |`);
  expect(languages).toContain(`| Python | \`pulumi\` ${SDK_FLOORS.python.pulumi}, Python ${SDK_FLOORS.python.interpreter} |`);
  expect(languages).toContain(`| Go | \`sdk/v3\` ${GO.sdk}, Go ${GO.go} |`);
  const install = flat(read("docs/installation-configuration.md"));
  expect(install).toContain(`Python ${SDK_FLOORS.python.interpreter} with \`pulumi\` ${minor(SDK_FLOORS.python.pulumi)}`);
  expect(install).toContain(`Go ${GO.go} with \`github.com/pulumi/pulumi/sdk/v3\` ${GO.sdk}`);
  expect(install).toContain(`\`@pulumi/pulumi\` ${minor(SDK_FLOORS.nodejs)}`);
});
