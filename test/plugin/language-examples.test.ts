/**
 * The YAML example uses only what the plugin's schema declares: every resource type, every
 * property it sets, nested ones included, and every output it reads. (The Python, Go and
 * TypeScript examples are type-checked against the SDKs generated from that schema, and
 * deployed: test/languages.)
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { packageSchema, type ObjectTypeSpec, type PropertySpec } from "../../plugin/schema";

const EXAMPLES = path.join(__dirname, "..", "..", "examples");
const schema = packageSchema("0.0.0");
const token = (name: string) => `messaging:index:${name}`;

/** A property spec's object type, when it is (or holds, as array items) a reference to one. */
function objectTypeOf(spec: PropertySpec | undefined): ObjectTypeSpec | undefined {
  const ref = spec?.$ref ?? spec?.items?.$ref;
  return ref?.startsWith("#/types/") ? (schema.types[ref.slice("#/types/".length)] as ObjectTypeSpec) : undefined;
}

/** What an example uses, resolved against the schema: one problem per name that is not there. */
class Usage {
  readonly problems: string[] = [];
  readonly seen: string[] = [];

  resource(name: string): { inputProperties: Record<string, PropertySpec>; properties: Record<string, PropertySpec> } | undefined {
    this.seen.push(name);
    const resource = schema.resources[token(name)];
    if (!resource) this.problems.push(`no resource ${token(name)}`);
    return resource;
  }

  type(name: string): ObjectTypeSpec | undefined {
    const type = schema.types[token(name)];
    if (!type) this.problems.push(`no type ${token(name)}`);
    return type as ObjectTypeSpec | undefined;
  }

  property(owner: string, properties: Record<string, PropertySpec> | undefined, name: string): PropertySpec | undefined {
    if (!properties) return undefined;
    const spec = properties[name];
    if (!spec) this.problems.push(`${owner} has no property ${name}`);
    return spec;
  }
}

test("examples/yaml: every resource type and property, nested ones included, and every output is in the schema", () => {
  const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  const yaml = sdkRequire("js-yaml") as { load(text: string): unknown };
  const program = yaml.load(fs.readFileSync(path.join(EXAMPLES, "yaml", "Pulumi.yaml"), "utf8")) as {
    resources: Record<string, { type: string; properties: Record<string, unknown> }>;
    outputs: Record<string, string>;
  };
  const usage = new Usage();
  const check = (owner: string, properties: Record<string, PropertySpec>, values: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(values)) {
      const spec = usage.property(owner, properties, key);
      const nested = objectTypeOf(spec);
      const items = Array.isArray(value) ? value : [value];
      if (nested) for (const item of items) check(`${owner}.${key}`, nested.properties, item as Record<string, unknown>);
    }
  };
  const kinds: Record<string, string> = {};
  for (const [name, resource] of Object.entries(program.resources)) {
    const kind = resource.type.replace(/^messaging:index:/, "");
    kinds[name] = kind;
    const spec = usage.resource(kind);
    if (spec) check(kind, spec.inputProperties, resource.properties);
  }
  for (const expression of Object.values(program.outputs)) {
    const [, resource, property] = /^\$\{(\w+)\.(\w+)\}$/.exec(expression)!;
    if (property !== "id" && property !== "urn")
      usage.property(kinds[resource], schema.resources[token(kinds[resource])]?.properties, property);
  }
  expect(usage.problems).toEqual([]);
  expect(usage.seen.sort()).toEqual(["MessageBatch", "WebhookEndpoint"]);
});

test("the checks find a name the schema lacks", () => {
  const usage = new Usage();
  usage.property("WebhookEndpoint", usage.resource("WebhookEndpoint")?.inputProperties, "webhookUrl");
  usage.type("MessageBatchMessageBody");
  expect(usage.problems).toEqual(["WebhookEndpoint has no property webhookUrl", "no type messaging:index:MessageBatchMessageBody"]);
});
