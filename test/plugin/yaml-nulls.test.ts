/**
 * What Pulumi YAML changes before the plugin sees it, as docs/json-rule.md says: a `null` entry of
 * a template model is dropped by Pulumi, so the service gets the model without the key; a number
 * no double holds exactly is rounded, and one out of a double's range arrives as a string.
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

  test("numbers: one no double holds is rounded, one beyond a double's range arrives as a string, before the plugin sees them", async () => {
    const dir = fs.mkdtempSync(path.join(scratch, "numbers-"));
    const program = [
      "name: yaml-numbers",
      "runtime: yaml",
      "resources:",
      "  welcome:",
      "    type: messaging:index:MessageBatch",
      "    properties:",
      "      stream: transactional",
      "      messages:",
      "        - tos: ['+254712345679']",
      "          template:",
      "            id: tmpl_welcome",
      "            model:",
      "              rate: 0.10000000000000001",
      "              huge: 1e400",
    ].join("\n");
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program);
    const stack = await suite.stack(dir, { projectDir: dir, plugin: true, config: { "messaging:stackIdentity": "yaml-numbers-4c1d" } });
    expectOk(await stack.up());
    expect(suite.emulator.batches().at(-1)!.messages).toEqual([
      { tos: ["+254712345679"], template: { id: "tmpl_welcome", model: { rate: 0.1, huge: "1e400" } } },
    ]);
  });
});
