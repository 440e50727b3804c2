/**
 * What Pulumi YAML loses before the plugin sees it, as docs/json-rule.md says: a `null` entry of
 * a template model is dropped by Pulumi, so the service gets the model without the key.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeRealEngine, expectOk, useRealEngine } from "../support/real-engine";

describeRealEngine("a null in a YAML program's template model", () => {
  const suite = useRealEngine("sk_test_real_yaml_nulls_2e");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-nulls-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("is dropped by Pulumi before the plugin: the service gets the model without the key", async () => {
    const program = [
      "name: yaml-nulls",
      "runtime: yaml",
      "resources:",
      "  welcome:",
      "    type: messaging:index:MessageBatch",
      "    properties:",
      "      stream: transactional",
      "      messages:",
      "        - tos: ['+254712345678']",
      "          template:",
      "            id: tmpl_welcome",
      "            model:",
      "              name: Amina",
      "              middle: null",
    ].join("\n");
    fs.writeFileSync(path.join(scratch, "Pulumi.yaml"), program);
    const stack = await suite.stack(scratch, {
      projectDir: scratch,
      plugin: true,
      config: { "messaging:stackIdentity": "yaml-nulls-0b6e2f" },
    });
    expectOk(await stack.up());
    expect(suite.emulator.batches().at(-1)!.messages).toEqual([
      { tos: ["+254712345678"], template: { id: "tmpl_welcome", model: { name: "Amina" } } },
    ]);
  });
});
