// The package schema, derived from each kind's zod schemas: types, requiredness, secrecy and descriptions are never written twice.
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
  /** Set through a field's `.meta()`: `"asset"` for a Pulumi asset (`pulumi.json#/Asset`). */
  pulumiType?: string;
  /** Set through a nested object's or an enum's `.meta()`: what its type in `types` says. */
  typeDescription?: string;
  /** Set through an enum's `.meta()`: what each value says. */
  valueDescriptions?: Record<string, string>;
};

export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
}

export type PropertySpec = TypeSpec & { description?: string; secret?: boolean; default?: unknown };

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** An enum type of the schema's `types`: each SDK gets its own typed values. */
export interface EnumTypeSpec {
  type: "string";
  description?: string;
  enum: { name: string; value: string; description?: string }[];
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  homepage: string;
  repository: string;
  logoUrl: string;
  publisher: string;
  pluginDownloadURL: string;
  meta: { moduleFormat: string; supportPack: boolean };
  config: { variables: Record<string, PropertySpec>; defaults: string[] };
  provider: { description: string; inputProperties: Record<string, PropertySpec>; properties: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
  language: Record<string, unknown>;
}

export interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  required: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

/** The repository, which is also the Go SDK's module path prefix (package.json `repository`). */
const REPOSITORY_PATH = "github.com/pulumi-messaging/pulumi-messaging";

// The repository's GitHub releases: every SDK carries it, so `pulumi up` installs the plugin.
export const PLUGIN_DOWNLOAD_URL = `github://api.${REPOSITORY_PATH}`;

/**
 * The oldest Pulumi SDKs the generated SDKs need (sdk/nodejs's `@pulumi/pulumi`, sdk/python's `pulumi` and the Python it
 * runs on): chosen, not left to the generators' defaults, and held by the floor test: Node.js 20 and Python 3.10 users take the SDKs.
 * - `@pulumi/pulumi` 3.142.0 declares Node.js 18 or later (3.248.0 is the last declaring 20);
 * - `pulumi` 3.231.0, the Python generator's own minimum: the floor test deployed with it, and failed with 3.165.0 (the
 *   first with `pulumi.type_token`), 3.201.0 (the last on Python 3.9), 3.202.0 and 3.215.0, whose serializer refuses
 *   the generated input types (`Expected 'list' got 'typing.Union[typing.Sequence[…`). It runs on Python 3.10 or later;
 * - `parver` 0.4, which the generated `_utilities.py` imports: the generator's own floor, 0.2.1, imports
 *   `collections.Iterable`, gone since Python 3.10 (the floor test showed it).
 */
export const SDK_FLOORS = { nodejs: "3.142.0", python: { pulumi: "3.231.0", parver: "0.4", interpreter: "3.10" } } as const;

/** The logo the Pulumi Registry shows: assets/logo.svg in this repository, from its default branch. */
export const LOGO_URL = `https://raw.githubusercontent.com/${REPOSITORY_PATH.slice("github.com/".length)}/main/assets/logo.svg`;

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
const ASSET: TypeSpec = { $ref: "pulumi.json#/Asset" };
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

/** Translates zod's JSON Schema into Pulumi type specs, naming nested objects and enums `<Owner><Property>` in `types`. */
class TypeTranslator {
  readonly types: Record<string, ObjectTypeSpec | EnumTypeSpec> = {};

  typeOf(schema: JsonSchema, name: string): TypeSpec {
    // An asset's wire form is the engine's business: every SDK takes its own asset class.
    if (schema.pulumiType === "asset") return ASSET;
    const plain = withoutNull(schema);
    switch (plain.type) {
      case "string":
        if (plain.enum) return { $ref: `#/types/${this.enumType(plain, name)}` };
        return { type: plain.type };
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

  /** A record of properties (a resource's inputs or state, a nested object's fields) as property specs. */
  properties(schema: JsonSchema, owner: string, extra: (key: string) => Partial<PropertySpec> = () => ({})): Record<string, PropertySpec> {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, property]) => [
        key,
        {
          ...this.typeOf(property, `${owner}${pascal(key)}`),
          ...(property.description ? { description: property.description } : {}),
          ...extra(key),
        },
      ]),
    );
  }

  private objectType(schema: JsonSchema, name: string): string {
    const token = `${PACKAGE_NAME}:index:${name}`;
    this.types[token] = {
      type: "object",
      ...(schema.typeDescription ? { description: schema.typeDescription } : {}),
      properties: this.properties(schema, name),
      ...(schema.required?.length ? { required: schema.required } : {}),
    };
    return token;
  }

  private enumType(schema: JsonSchema, name: string): string {
    const token = `${PACKAGE_NAME}:index:${name}`;
    this.types[token] = {
      type: "string",
      ...(schema.typeDescription ? { description: schema.typeDescription } : {}),
      enum: (schema.enum as string[]).map((value) => {
        const description = schema.valueDescriptions?.[value];
        return { name: pascal(value), value, ...(description ? { description } : {}) };
      }),
    };
    return token;
  }
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // A JSON value (e.g. a template's model) cannot be written in JSON Schema: it becomes `{}`, i.e. Any.
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

/** Put before a property's description in the schema, for the SDKs' doc comments (a table has columns for them). */
export const REQUIRED_NOTE = "Required.";
export const SECRET_NOTE = "A Pulumi secret: encrypted in the state, masked in the CLI's output.";

function resourceSpec(definition: KindDefinition, translator: TypeTranslator): ResourceSpec {
  const inputs = jsonSchemaOf(definition.inputs, "input");
  const state = jsonSchemaOf(definition.state, "output");
  const requiredInputs = inputs.required ?? [];
  // What an SDK's doc comment cannot otherwise tell (Go's Args and Python's help() do not say it): required, secret.
  const said = (key: string, required: boolean, secret: boolean): { description?: string } => {
    const notes = [required ? REQUIRED_NOTE : "", secret ? SECRET_NOTE : ""];
    const description = [notes.filter(Boolean).join(" "), definition.describe(key) ?? ""].filter(Boolean).join(" ");
    return description ? { description } : {};
  };
  const inputSpec = (key: string) => ({
    ...said(key, requiredInputs.includes(key), definition.secretInputs.includes(key)),
    ...(definition.secretInputs.includes(key) ? { secret: true } : {}),
  });
  const outputSpec = (key: string) => ({
    ...said(key, false, definition.secretOutputs.includes(key)),
    ...(definition.secretOutputs.includes(key) ? { secret: true } : {}),
  });
  const list = (keys: readonly string[]) => keys.map((key) => `\`${key}\``).join(", ");
  const summary = [
    requiredInputs.length > 0 ? `Required inputs: ${list(requiredInputs)}.` : "",
    definition.secretOutputs.length > 0
      ? `Secret outputs (encrypted in the state, masked in output): ${list(definition.secretOutputs)}.`
      : "",
  ].filter(Boolean);
  return {
    description: [definition.description, summary.join(" ")].filter(Boolean).join("\n\n"),
    properties: translator.properties(state, definition.name, outputSpec),
    // Outputs that can be null are not required: a generated SDK then types them optional.
    required: (state.required ?? []).filter((key) => !isNullable(state.properties![key])),
    inputProperties: translator.properties(inputs, definition.name, inputSpec),
    requiredInputs,
  };
}

function configSpec(): Record<string, PropertySpec> {
  const descriptions: Record<SettingName, string> = {
    apiKey: `API key of the messaging service (a secret). Falls back to the environment variable ${SETTINGS.apiKey.env}.`,
    baseUrl: `Base URL of the messaging service, e.g. the local emulator's. Falls back to ${SETTINGS.baseUrl.env}.`,
    apiVersion: `Value of the X-Service-Version header, YYYY-MM-DD. Falls back to ${SETTINGS.apiVersion.env}, then ${DEFAULT_API_VERSION}.`,
    maxMessagesPerUpdate:
      "The most messages one update may send, all its batches together: preview and `pulumi up` stop before any call when " +
      `more would go, naming the batches and their counts. Falls back to ${SETTINGS.maxMessagesPerUpdate.env}; unset, no limit.`,
  };
  const types: Partial<Record<SettingName, "integer">> = { maxMessagesPerUpdate: "integer" };
  return {
    ...Object.fromEntries(
      (Object.keys(SETTINGS) as SettingName[]).map((name) => [
        configKey(name),
        { type: types[name] ?? "string", description: descriptions[name], ...(SETTINGS[name].secret ? { secret: true } : {}) },
      ]),
    ),
    [STACK_IDENTITY_KEY]: {
      type: "string",
      description:
        "This stack's identity, which every create's idempotency keys start from: any unguessable value of 8 to 100 letters, " +
        "digits, '.', '_' or '-', set once per stack. Pinned here it survives whatever happens to the state (resources " +
        "removed and declared again, `pulumi state delete`, a plugin upgrade, `pulumi stack rename`); unset, the id of the " +
        "stack's messaging provider is the identity, and a new one is said at preview. An explicit provider not given one " +
        "takes the stack's `messaging:stackIdentity`. Config only: no environment variable.",
    },
  };
}

export const STACK_IDENTITY_KEY = STACK_IDENTITY_CONFIG.slice(`${PACKAGE_NAME}:`.length);

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
    homepage: `https://${REPOSITORY_PATH}`,
    repository: `https://${REPOSITORY_PATH}`,
    // The Pulumi Registry shows it beside the package's name: assets/logo.svg, served raw from the default branch.
    logoUrl: LOGO_URL,
    publisher: "pulumi-messaging",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    // supportPack: the Go SDK gets its own go.mod (a module a user can `go get`), the Python one a pyproject.toml.
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: config, defaults: [] },
    provider: {
      description: "The messaging provider: where the service is and how to authenticate.",
      inputProperties: config,
      properties: config,
    },
    resources,
    types: translator.types,
    // respectSchemaVersion: each SDK carries the plugin's version, or the engine would ask the Python and Go SDKs' plugin for v0.0.0.
    // The floors (docs/languages.md, "Floors"): the oldest Pulumi SDK each generated SDK compiles and deploys with, held by
    // test/languages/floors.test.ts. Go's is sdk/go/go.mod's, written by scripts/pulumi-cli/sdkgen.
    language: {
      go: { importBasePath: `${REPOSITORY_PATH}/sdk/go/messaging`, respectSchemaVersion: true },
      nodejs: {
        packageName: "@pulumi-messaging/messaging",
        respectSchemaVersion: true,
        dependencies: { "@pulumi/pulumi": `^${SDK_FLOORS.nodejs}` },
      },
      python: {
        packageName: "pulumi_messaging",
        respectSchemaVersion: true,
        pyproject: { enabled: true },
        pythonRequires: `>=${SDK_FLOORS.python.interpreter}`,
        requires: { pulumi: `>=${SDK_FLOORS.python.pulumi},<4.0.0`, parver: `>=${SDK_FLOORS.python.parver}` },
      },
      csharp: { rootNamespace: "PulumiMessaging", respectSchemaVersion: true },
    },
  };
}
