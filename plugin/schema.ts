/**
 * The Pulumi package schema the plugin answers GetSchema with, derived from each kind's
 * definition (`provider/kinds/<kind>/`) through zod's JSON Schema: property types, what is
 * required, what is secret and the descriptions are never written a second time. Generated
 * SDKs and YAML read it.
 */
import { z } from "zod";
import { SETTINGS, type SettingName } from "../client/settings";
import { STACK_IDENTITY_CONFIG } from "../provider/stack-identity-pin";
import { DEFAULT_API_VERSION } from "../client/options";
import { PACKAGE_NAME, SERVED_KINDS, tokenOf, type KindDefinition } from "./kinds";

type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
};

/** A Pulumi type spec (`pulumi.json` `typeSpec`). */
export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
}

/** A Pulumi property spec: a type spec plus description and secrecy. */
export type PropertySpec = TypeSpec & { description?: string; secret?: boolean; default?: unknown };

/** An object type of the schema's `types`. */
export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** The parts of the package schema the plugin produces. */
export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  repository: string;
  publisher: string;
  pluginDownloadURL: string;
  meta: { moduleFormat: string; supportPack: boolean };
  config: { variables: Record<string, PropertySpec>; defaults: string[] };
  provider: { description: string; inputProperties: Record<string, PropertySpec>; properties: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  types: Record<string, ObjectTypeSpec>;
  language: Record<string, unknown>;
}

/** A resource of the package schema. */
export interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  required: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

/** The repository, which is also the Go SDK's module path prefix (package.json `repository`). */
const REPOSITORY_PATH = "github.com/pulumi-messaging/pulumi-messaging";

/**
 * Where the engine downloads the plugin from, in the form Pulumi resolves: the repository's
 * GitHub releases, each holding the archives `pulumi-resource-messaging-v<version>-<os>-<arch>.tar.gz`
 * (`workspace/plugins.go` `githubSource`). Every SDK's `pulumi-plugin.json` carries it, so
 * `pulumi up` installs the plugin by itself, and `pulumi plugin install resource messaging
 * <version> --server <it>` installs it by name.
 */
export const PLUGIN_DOWNLOAD_URL = `github://api.${REPOSITORY_PATH}`;

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
const pascal = (name: string): string => name[0].toUpperCase() + name.slice(1);
// Array items are named for one element: `messages` holds `Message`s.
const singular = (name: string): string => (name.endsWith("s") ? name.slice(0, -1) : name);

/** Without `null` among its types: Pulumi has no null type; a nullable output is simply not required. */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== "null");
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  if (schema.anyOf) {
    const rest = schema.anyOf.filter((option) => option.type !== "null");
    if (rest.length === 1) return withoutNull(rest[0]);
  }
  return schema;
}

const isNullable = (schema: JsonSchema): boolean =>
  (Array.isArray(schema.type) && schema.type.includes("null")) || (schema.anyOf ?? []).some((option) => option.type === "null");

/**
 * What the nested object types and their fields say in the generated SDKs (docstrings, TSDoc,
 * Go comments). zod's JSON Schema carries descriptions only for the resources' own fields; the
 * SDKs' doc comments on these types come from here.
 */
const NESTED_TYPE_DOCS: Record<string, { description: string; properties: Record<string, string> }> = {
  WebhookEndpointAdopt: {
    description: "An endpoint made elsewhere (e.g. in the dashboard), brought under the stack as it is.",
    properties: {
      id: "The endpoint's id, `we_…`.",
      secret: "The endpoint's signing secret, as the dashboard shows it.",
    },
  },
  MessageBatchMessage: {
    description: "One message of a batch: its recipients, and exactly one of a literal `body` or a `template`.",
    properties: {
      tos: "Recipients, in E.164 form (`+` then 7 to 15 digits); at least one.",
      body: "The literal text, non-empty; exclusive with `template`.",
      template: "A template reference; exclusive with `body`.",
    },
  },
  MessageBatchMessageTemplate: {
    description: "A template reference: an existing template's id and the values substituted into it.",
    properties: {
      id: "The template's id, non-empty.",
      model: "Values substituted into the template: any JSON object.",
    },
  },
};

/** Translates zod's JSON Schema into Pulumi type specs, naming nested objects `<Owner><Property>` in `types`. */
class TypeTranslator {
  readonly types: Record<string, ObjectTypeSpec> = {};

  typeOf(schema: JsonSchema, name: string): TypeSpec {
    const plain = withoutNull(schema);
    switch (plain.type) {
      case "string":
      case "boolean":
      case "integer":
      case "number":
        return { type: plain.type };
      case "array":
        return { type: "array", items: plain.items ? this.typeOf(plain.items, singular(name)) : ANY };
      case "object":
        if (plain.properties) return { $ref: `#/types/${this.objectType(plain, name)}` };
        if (typeof plain.additionalProperties === "object")
          return { type: "object", additionalProperties: this.typeOf(plain.additionalProperties, name) };
        return { type: "object", additionalProperties: ANY };
      default:
        // No type or a union of types (e.g. a JSON value): anything goes.
        return ANY;
    }
  }

  private objectType(schema: JsonSchema, name: string): string {
    const token = `${PACKAGE_NAME}:index:${name}`;
    const docs = NESTED_TYPE_DOCS[name];
    const properties = Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, property]) => {
        const description = property.description ?? docs?.properties[key];
        return [key, { ...this.typeOf(property, `${name}${pascal(key)}`), ...(description ? { description } : {}) }];
      }),
    );
    this.types[token] = {
      type: "object",
      ...(docs ? { description: docs.description } : {}),
      properties,
      ...(schema.required?.length ? { required: schema.required } : {}),
    };
    return token;
  }
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // A JSON value (e.g. a template's model) cannot be written in JSON Schema: it becomes `{}`, i.e. Any.
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

function resourceSpec(definition: KindDefinition, translator: TypeTranslator): ResourceSpec {
  const describe = (key: string): { description?: string } => {
    const description = definition.describe(key);
    return description ? { description } : {};
  };
  const inputs = jsonSchemaOf(definition.inputs, "input");
  const state = jsonSchemaOf(definition.state, "output");
  const inputProperties = Object.fromEntries(
    Object.entries(inputs.properties ?? {}).map(([key, property]) => [
      key,
      {
        ...translator.typeOf(property, `${definition.name}${pascal(key)}`),
        ...describe(key),
        ...((definition.secretInputs as readonly string[]).includes(key) ? { secret: true } : {}),
      },
    ]),
  );
  const properties = Object.fromEntries(
    Object.entries(state.properties ?? {}).map(([key, property]) => [
      key,
      {
        ...translator.typeOf(property, `${definition.name}${pascal(key)}`),
        ...describe(key),
        ...((definition.secretOutputs as readonly string[]).includes(key) ? { secret: true } : {}),
      },
    ]),
  );
  return {
    description: definition.description,
    properties,
    // Outputs that can be null are not required: a generated SDK then types them optional.
    required: (state.required ?? []).filter((key) => !isNullable(state.properties![key])),
    inputProperties,
    requiredInputs: inputs.required ?? [],
  };
}

/** The provider's configuration, from the one settings table (`client/settings.ts`). */
function configSpec(): Record<string, PropertySpec> {
  const descriptions: Record<SettingName, string> = {
    apiKey: `API key of the messaging service (a secret). Falls back to the environment variable ${SETTINGS.apiKey.env}.`,
    baseUrl: `Base URL of the messaging service, e.g. the local emulator's. Falls back to ${SETTINGS.baseUrl.env}.`,
    apiVersion: `Value of the X-Service-Version header, YYYY-MM-DD. Falls back to ${SETTINGS.apiVersion.env}, then ${DEFAULT_API_VERSION}.`,
  };
  return {
    ...Object.fromEntries(
      (Object.keys(SETTINGS) as SettingName[]).map((name) => [
        configKey(name),
        { type: "string", description: descriptions[name], ...(SETTINGS[name].secret ? { secret: true } : {}) },
      ]),
    ),
    [STACK_IDENTITY_KEY]: {
      type: "string",
      description:
        "This stack's identity, which every create's idempotency keys start from: any unguessable value of 8 to 100 letters, " +
        "digits, '.', '_' or '-', set once per stack. Pinned here it survives whatever happens to the state (resources " +
        "removed and declared again, `pulumi state delete`, a plugin upgrade); unset, the id of the stack's messaging " +
        "provider is the identity, and a new one is said at preview. Config only: no environment variable.",
    },
  };
}

/** The unqualified config key of the pinned stack identity: `stackIdentity`. */
export const STACK_IDENTITY_KEY = STACK_IDENTITY_CONFIG.slice(`${PACKAGE_NAME}:`.length);

/** The unqualified config key of a setting: `apiKey` for `messaging:apiKey`. */
export function configKey(name: SettingName): string {
  return SETTINGS[name].config.slice(`${PACKAGE_NAME}:`.length);
}

/** The package schema, for a plugin of `version` serving `kinds` (default: every kind of the registry). */
export function packageSchema(version: string, kinds: readonly KindDefinition[] = SERVED_KINDS): PackageSchema {
  const translator = new TypeTranslator();
  const resources = Object.fromEntries(kinds.map((definition) => [tokenOf(definition), resourceSpec(definition, translator)]));
  const config = configSpec();
  return {
    name: PACKAGE_NAME,
    displayName: "Messaging",
    version,
    description: "Webhook endpoints and message batches of the messaging service.",
    keywords: ["pulumi", "messaging", "webhooks", "category/utility", "kind/native"],
    license: "Apache-2.0",
    repository: `https://${REPOSITORY_PATH}`,
    publisher: "pulumi-messaging",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    // supportPack: the SDKs are written as `pulumi package gen-sdk` writes them for packing: the Go
    // SDK with its own go.mod (a module a user can `go get`), the Python one with pyproject.toml.
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: config, defaults: [] },
    provider: {
      description: "The messaging provider: where the service is and how to authenticate.",
      inputProperties: config,
      properties: config,
    },
    resources,
    types: translator.types,
    // respectSchemaVersion: each SDK carries the plugin's version (package.json, pyproject.toml,
    // pulumi-plugin.json), so the engine asks for this plugin; without it the Python and Go
    // SDKs asked for v0.0.0. The SDKs are generated by `npm run sdk:generate` (docs/languages.md).
    language: {
      go: { importBasePath: `${REPOSITORY_PATH}/sdk/go/messaging`, respectSchemaVersion: true },
      nodejs: { packageName: "@pulumi-messaging/messaging", respectSchemaVersion: true },
      python: { packageName: "pulumi_messaging", respectSchemaVersion: true, pyproject: { enabled: true } },
      csharp: { rootNamespace: "PulumiMessaging", respectSchemaVersion: true },
    },
  };
}
