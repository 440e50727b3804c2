/**
 * The package schema: valid against Pulumi's package metaschema (a copy of it at v3.239.0
 * beside this file), passing the checks of Pulumi's schema binder that can be reproduced here,
 * and derived from the zod schemas.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { STACK_IDENTITY_CONFIG } from "../../provider/stack-identity-pin";
import { SETTINGS } from "../../client/settings";
import { SERVED_KINDS, tokenOf } from "../../plugin/kinds";
import { packageSchema, PLUGIN_DOWNLOAD_URL, type ObjectTypeSpec, type PackageSchema, type TypeSpec } from "../../plugin/schema";
import { validate } from "./json-schema";
import { WebhookFormat } from "../../schemas/webhook-endpoint";

const metaschema = JSON.parse(fs.readFileSync(path.join(__dirname, "pulumi-package-metaschema.json"), "utf8"));
const schema = packageSchema("1.2.3");

/** The binder's checks this test reproduces; each returns the problems it finds. */
function binderProblems(spec: PackageSchema): string[] {
  const problems: string[] = [];
  // validateTypeToken: three parts, the package's name, not `provider` in the root module.
  for (const section of ["resources", "types"] as const) {
    for (const token of Object.keys(spec[section])) {
      const parts = token.split(":");
      if (parts.length !== 3) problems.push(`${token}: should have three parts`);
      else if (parts[0] !== spec.name) problems.push(`${token}: must have package name ${spec.name}`);
      else if ((parts[1] === "" || parts[1].toLowerCase() === "index") && parts[2].toLowerCase() === "provider")
        problems.push(`${token}: provider is reserved`);
    }
  }
  const refs = (type: TypeSpec, at: string): void => {
    if (type.$ref?.startsWith("#/types/") && !(decodeURIComponent(type.$ref.slice("#/types/".length)) in spec.types))
      problems.push(`${at}: type ${type.$ref} not found`);
    // The binder's built-in types: the package uses Any and Asset.
    if (type.$ref && !type.$ref.startsWith("#/types/") && !["pulumi.json#/Any", "pulumi.json#/Asset"].includes(type.$ref))
      problems.push(`${at}: invalid type reference ${type.$ref}`);
    if (type.type === "array" && !type.items) problems.push(`${at}: missing "items" property in array type spec`);
    if (type.items) refs(type.items, `${at}/items`);
    if (type.additionalProperties) refs(type.additionalProperties, `${at}/additionalProperties`);
  };
  const properties = (props: Record<string, TypeSpec>, required: string[] | undefined, at: string, reserved: string[]): void => {
    for (const [name, type] of Object.entries(props)) {
      // bindProperties: `pulumi` is reserved; bindResourceDetails / bindProvider: `id`, `urn`, provider `version`.
      if (reserved.includes(name)) problems.push(`${at}/${name}: reserved property name`);
      refs(type, `${at}/${name}`);
    }
    for (const name of required ?? []) if (!(name in props)) problems.push(`${at}: unknown required property ${name}`);
  };
  for (const [token, resource] of Object.entries(spec.resources)) {
    properties(resource.properties, resource.required, `#/resources/${token}/properties`, ["pulumi", "id", "urn"]);
    properties(resource.inputProperties, resource.requiredInputs, `#/resources/${token}/inputProperties`, ["pulumi"]);
  }
  for (const [token, type] of Object.entries(spec.types))
    if (type.type === "object") properties(type.properties, type.required, `#/types/${token}/properties`, ["pulumi"]);
  properties(spec.provider.inputProperties, [], "#/provider/inputProperties", ["pulumi", "version"]);
  properties(spec.config.variables, spec.config.defaults, "#/config/variables", ["pulumi"]);
  return problems;
}

test("the schema is valid against Pulumi's package metaschema", () => {
  expect(validate(JSON.parse(JSON.stringify(schema)), metaschema)).toEqual([]);
});

test("the metaschema check and the binder checks can fail", () => {
  const broken = JSON.parse(JSON.stringify(schema));
  broken.resources["messaging:index:WebhookEndpoint"].properties.url = { type: "text" };
  expect(validate(broken, metaschema).join("\n")).toMatch(/WebhookEndpoint\/properties\/url/);

  broken.resources["other:index:Thing"] = {
    properties: { id: { type: "string" } },
    required: ["missing"],
    inputProperties: {},
    requiredInputs: [],
  };
  broken.types["messaging:index:Dangling"] = { type: "object", properties: { next: { $ref: "#/types/messaging:index:Nowhere" } } };
  expect(binderProblems(broken)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/other:index:Thing: must have package name messaging/),
      expect.stringMatching(/Thing\/properties\/id: reserved/),
      expect.stringMatching(/unknown required property missing/),
      expect.stringMatching(/messaging:index:Nowhere not found/),
    ]),
  );
});

test("the schema passes the binder's checks: tokens messaging:index:*, required names that exist, references that resolve, no reserved names", () => {
  expect(binderProblems(schema)).toEqual([]);
  expect(Object.keys(schema.resources).sort()).toEqual(["messaging:index:MessageBatch", "messaging:index:WebhookEndpoint"]);
  expect(schema.version).toBe("1.2.3");
});

test("each resource's properties come from its zod schemas: every input, every state field, required where zod requires them", () => {
  for (const definition of SERVED_KINDS) {
    const resource = schema.resources[tokenOf(definition)];
    const inputKeys = Object.keys(definition.inputs.shape);
    expect(Object.keys(resource.inputProperties).sort()).toEqual([...inputKeys].sort());
    const optional = (shape: Record<string, { safeParse(v: unknown): { success: boolean } }>, key: string) =>
      shape[key].safeParse(undefined).success;
    expect([...resource.requiredInputs].sort()).toEqual(inputKeys.filter((key) => !optional(definition.inputs.shape as never, key)).sort());
    const stateKeys = Object.keys(definition.state.shape);
    expect(Object.keys(resource.properties).sort()).toEqual([...stateKeys].sort());
    const nullable = (key: string) =>
      (definition.state.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>)[key].safeParse(null).success;
    expect([...resource.required].sort()).toEqual(stateKeys.filter((key) => !nullable(key)).sort());
  }
  const endpoint = schema.resources["messaging:index:WebhookEndpoint"];
  expect(endpoint.inputProperties.events).toMatchObject({ type: "array", items: { type: "string" } });
  expect(endpoint.properties.metadata).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
  expect(endpoint.properties.live).toMatchObject({ type: "boolean" });
  const typeAt = (ref: string | undefined) => schema.types[ref!.slice("#/types/".length)] as ObjectTypeSpec;
  const adopt = typeAt(endpoint.inputProperties.adopt.$ref);
  expect(adopt).toMatchObject({ properties: { id: { type: "string" }, secret: { type: "string" } }, required: ["id", "secret"] });

  const batch = schema.resources["messaging:index:MessageBatch"];
  const message = typeAt(batch.inputProperties.messages.items!.$ref);
  expect(message).toMatchObject({
    properties: { tos: { type: "array", items: { type: "string" } }, body: { type: "string" } },
    required: ["tos"],
  });
  expect(typeAt(message.properties.template.$ref)).toMatchObject({ required: ["id", "model"] });
  expect(batch.properties.messageCount).toEqual(expect.objectContaining({ type: "number" }));
});

test("format is an input enum of WebhookFormat's values, so each SDK gets typed values; the output stays the string state recorded", () => {
  const endpoint = schema.resources["messaging:index:WebhookEndpoint"];
  expect(endpoint.inputProperties.format.$ref).toBe("#/types/messaging:index:WebhookEndpointFormat");
  expect(endpoint.properties.format).toMatchObject({ type: "string" });
  const format = schema.types["messaging:index:WebhookEndpointFormat"];
  expect(format).toMatchObject({ type: "string", description: expect.any(String) });
  expect("enum" in format && format.enum.map(({ name, value }) => [name, value])).toEqual(
    WebhookFormat.options.map((value) => [value[0].toUpperCase() + value.slice(1), value]),
  );
  expect("enum" in format && format.enum.every((value) => (value.description ?? "").length > 0)).toBe(true);
});

test("nested types carry the descriptions their zod schemas give in .meta()", () => {
  for (const [token, type] of Object.entries(schema.types)) {
    expect([token, typeof type.description]).toEqual([token, "string"]);
    if (type.type === "object")
      for (const [key, property] of Object.entries(type.properties))
        expect([token, key, typeof property.description]).toEqual([token, key, "string"]);
  }
});

test("secrets are marked: the endpoint's secret output, adopt, and the API key in config and provider inputs", () => {
  const secretNames = (props: Record<string, { secret?: boolean }>) => Object.keys(props).filter((key) => props[key].secret === true);
  expect(secretNames(schema.resources["messaging:index:WebhookEndpoint"].properties)).toEqual(["secret"]);
  expect(secretNames(schema.resources["messaging:index:WebhookEndpoint"].inputProperties)).toEqual(["adopt"]);
  expect(secretNames(schema.resources["messaging:index:MessageBatch"].properties)).toEqual(["messagesDigest"]);
  expect(secretNames(schema.config.variables)).toEqual(["apiKey"]);
  expect(secretNames(schema.provider.inputProperties)).toEqual(["apiKey"]);
  // The config keys are the settings table's, without the namespace, and the pinned stack identity (config only).
  expect(Object.keys(schema.config.variables).map((key) => `messaging:${key}`)).toEqual([
    ...Object.values(SETTINGS).map((setting) => setting.config),
    STACK_IDENTITY_CONFIG,
  ]);
});

test("pluginDownloadURL is the GitHub releases of package.json's repository, in the github:// form the engine resolves", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
  const repository = /^git\+https:\/\/github\.com\/([^/]+)\/([^/.]+)\.git$/.exec(manifest.repository.url);
  expect(repository).not.toBeNull();
  expect(schema.pluginDownloadURL).toBe(`github://api.github.com/${repository![1]}/${repository![2]}`);
  expect(PLUGIN_DOWNLOAD_URL).toBe(schema.pluginDownloadURL);
  expect(schema.repository).toBe(`https://github.com/${repository![1]}/${repository![2]}`);
});
