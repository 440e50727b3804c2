/**
 * sdk/schema.json, which `npm run generate` writes with the SDKs, is the package schema the plugin serves now: a schema, a kind or
 * a field's description changed without regenerating fails here, in seconds and without Go. (The languages tier runs the
 * generators themselves and compiles what they wrote: test/languages/sdk-fresh.test.ts.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PACKAGE_VERSION } from "../../client/version";
import { packageSchema } from "../../plugin/schema";
import { REPO_ROOT } from "../../scripts/repo-root";

const committed = () => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "sdk", "schema.json"), "utf8"));

test("sdk/schema.json is the schema the plugin serves (else: npm run generate)", () => {
  // As the plugin answers GetSchema: JSON, so a property left undefined is no property.
  expect(committed()).toStrictEqual(JSON.parse(JSON.stringify(packageSchema(PACKAGE_VERSION))));
});
