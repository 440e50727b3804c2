/**
 * The YAML, Python and Go examples use only what the plugin's schema declares: every
 * resource type, every property they set, every nested type and every output they read,
 * under the names each language's generated SDK gives them (Python snake_case and `<Type>Args`
 * classes, Go PascalCase, `New<Resource>`, `<Type>Args` and `<Type>Array`). They cannot run
 * here (their language hosts cannot be built, see docs/real-engine.md); this keeps them from drifting.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { packageSchema, type ObjectTypeSpec, type PropertySpec } from "../../plugin/schema";

const EXAMPLES = path.join(__dirname, "..", "..", "examples");
const schema = packageSchema("0.0.0");
const token = (name: string) => `messaging:index:${name}`;
const camel = (name: string) =>
  name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());

/** A property spec's object type, when it is (or holds, as array items) a reference to one. */
function objectTypeOf(spec: PropertySpec | undefined): ObjectTypeSpec | undefined {
  const ref = spec?.$ref ?? spec?.items?.$ref;
  return ref?.startsWith("#/types/") ? schema.types[ref.slice("#/types/".length)] : undefined;
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
    return type;
  }

  property(owner: string, properties: Record<string, PropertySpec> | undefined, name: string): PropertySpec | undefined {
    if (!properties) return undefined;
    const spec = properties[name];
    if (!spec) this.problems.push(`${owner} has no property ${name}`);
    return spec;
  }
}

/** The text of each balanced `open … close` group starting right after `start` indexes. */
function groups(text: string, pattern: RegExp, open: string, close: string): Array<{ match: RegExpExecArray; body: string }> {
  const found: Array<{ match: RegExpExecArray; body: string }> = [];
  for (const match of text.matchAll(new RegExp(pattern, "g"))) {
    let depth = 1;
    let end = match.index! + match[0].length;
    for (; end < text.length && depth > 0; end += 1) {
      if (text[end] === open) depth += 1;
      else if (text[end] === close) depth -= 1;
    }
    found.push({ match: match as RegExpExecArray, body: text.slice(match.index! + match[0].length, end - 1) });
  }
  return found;
}

/** Names set at the top level of an argument list or struct literal (`name=` / `Name:`). */
function topLevelKeys(body: string, key: RegExp): string[] {
  let depth = 0;
  let top = "";
  for (const char of body) {
    if ("([{".includes(char)) depth += 1;
    if (depth === 0) top += char;
    else top += " ";
    if (")]}".includes(char)) depth -= 1;
  }
  return [...top.matchAll(new RegExp(key, "g"))].map((m) => m[1]);
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

test("examples/python: resource classes, <Type>Args classes, keyword arguments and output attributes are the generated SDK's", () => {
  const source = fs.readFileSync(path.join(EXAMPLES, "python", "__main__.py"), "utf8");
  const usage = new Usage();
  const variables: Record<string, string> = {};
  for (const { match, body } of groups(source, /(?:(\w+) = )?messaging\.(\w+)\(/, "(", ")")) {
    const [, variable, name] = match;
    const keys = topLevelKeys(body, /\b(\w+)=/).map(camel);
    if (name.endsWith("Args")) {
      const type = usage.type(name.slice(0, -"Args".length));
      for (const key of keys) usage.property(name, type?.properties, key);
    } else {
      const resource = usage.resource(name);
      if (variable) variables[variable] = name;
      for (const key of keys) usage.property(name, resource?.inputProperties, key);
    }
  }
  for (const [, variable, attribute] of source.matchAll(/\b(\w+)\.(\w+)\b/g)) {
    if (!variables[variable] || attribute === "id" || attribute === "urn") continue;
    usage.property(variables[variable], schema.resources[token(variables[variable])]?.properties, camel(attribute));
  }
  expect(usage.problems).toEqual([]);
  expect([...new Set(usage.seen)].sort()).toEqual(["MessageBatch", "WebhookEndpoint"]);
});

test("examples/go: New<Resource>, <Type>Args and <Type>Array, struct fields and output fields are the generated SDK's", () => {
  const source = fs.readFileSync(path.join(EXAMPLES, "go", "main.go"), "utf8");
  const usage = new Usage();
  const variables: Record<string, string> = {};
  for (const [, variable, name] of source.matchAll(/(\w+), err :?= messaging\.New(\w+)\(/g)) {
    usage.resource(name);
    variables[variable] = name;
  }
  for (const { match, body } of groups(source, /&messaging\.(\w+)Args\{/, "{", "}")) {
    const name = match[1];
    const owner = schema.resources[token(name)] ? schema.resources[token(name)].inputProperties : usage.type(name)?.properties;
    for (const field of topLevelKeys(body, /\b([A-Z]\w*):/)) usage.property(name, owner, camel(field));
  }
  for (const [, name] of source.matchAll(/messaging\.(\w+)Array\{/g)) usage.type(name);
  for (const [, variable, field] of source.matchAll(/\b(\w+)\.([A-Z]\w*)\b/g)) {
    if (!variables[variable] || field === "ID" || field === "URN") continue;
    usage.property(variables[variable], schema.resources[token(variables[variable])]?.properties, camel(field));
  }
  expect(usage.problems).toEqual([]);
  expect([...new Set(usage.seen)].sort()).toEqual(["MessageBatch", "WebhookEndpoint"]);
});

test("the checks find a name the schema lacks", () => {
  const usage = new Usage();
  usage.property("WebhookEndpoint", usage.resource("WebhookEndpoint")?.inputProperties, "webhookUrl");
  usage.type("MessageBatchMessageBody");
  expect(usage.problems).toEqual(["WebhookEndpoint has no property webhookUrl", "no type messaging:index:MessageBatchMessageBody"]);
});
