/**
 * `endpoints create`'s flags, one per field of the create schema, so a new create field needs
 * no edit here: its flag, its place in the usage and its help line come from the schema.
 */
import { z } from "zod";
import { KNOWN_EVENT_TYPES } from "../../../schemas/types";
import { WebhookEndpointCreate, WebhookFormat } from "../../../schemas/webhook-endpoint";

/** A create field's flag: its name in kebab case (`--description`). */
export const flagOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** One flag as `--help` lists it: the flag with its argument, and what it does. */
export interface OptionHelp {
  readonly flag: string;
  readonly text: string;
}

/** "a", "a or b", "a, b or c". */
const oneOf = (values: readonly string[]): string =>
  values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;

/**
 * The create fields the command reads itself (a required URL, events with a default and a
 * did-you-mean, a format checked against its values): their usage and help say so.
 */
const OWN_FLAGS = {
  url: {
    usage: "--url URL",
    options: { url: { type: "string" } },
    help: [{ flag: "--url URL", text: "where the events are posted (create; required)" }],
  },
  events: {
    usage: "[--events TYPE,…] [--allow-unknown-type]",
    options: { events: { type: "string", multiple: true }, "allow-unknown-type": { type: "boolean" } },
    help: [
      {
        flag: "--events TYPE,…",
        text: `event types, comma-separated or repeated (default: every named type: ${KNOWN_EVENT_TYPES.join(", ")})`,
      },
      { flag: "--allow-unknown-type", text: "subscribe to a type that is not a named one (refused otherwise)" },
    ],
  },
  format: {
    usage: `[--format ${WebhookFormat.options.join("|")}]`,
    options: { format: { type: "string" } },
    help: [
      {
        flag: "--format F",
        text: `${oneOf(WebhookFormat.options)} (default: ${WebhookEndpointCreate.shape.format.parse(undefined)})`,
      },
    ],
  },
} as const satisfies Partial<Record<keyof typeof WebhookEndpointCreate.shape, unknown>>;

/** `--format`'s usage and help, which `listen` shares: it makes endpoints too. */
export const FORMAT_FLAG = OWN_FLAGS.format;

/** The create fields with a flag of their own (see {@link OWN_FLAGS}); every other one is sent as given. */
export const CREATE_FIELDS_WITH_OWN_FLAGS = Object.keys(OWN_FLAGS) as (keyof typeof OWN_FLAGS)[];

const description = (field: z.core.$ZodType): string =>
  (z.globalRegistry.get(field) as { description?: string } | undefined)?.description ?? "";

/** Every create field's flag, in the schema's order: `--<field> TEXT` for one sent as given, described by its `.meta()`. */
const CREATE_FLAGS = Object.entries(WebhookEndpointCreate.shape).map(([key, field]) => {
  if (Object.hasOwn(OWN_FLAGS, key)) return OWN_FLAGS[key as keyof typeof OWN_FLAGS];
  const flag = `--${flagOf(key)} TEXT`;
  return {
    usage: field.safeParse(undefined).success ? `[${flag}]` : flag,
    options: { [flagOf(key)]: { type: "string" } } as Record<string, { type: "string" }>,
    help: [{ flag, text: description(field) }],
  };
});

/** The create flags as they appear in the usage line, e.g. `--url URL [--events TYPE,…] …`. */
export const CREATE_USAGE = CREATE_FLAGS.map((flag) => flag.usage).join(" ");

/** The create flags' `parseArgs` options. */
export const CREATE_OPTIONS = Object.assign({}, ...CREATE_FLAGS.map((flag) => flag.options)) as (typeof OWN_FLAGS)["url"]["options"] &
  (typeof OWN_FLAGS)["events"]["options"] &
  (typeof OWN_FLAGS)["format"]["options"] &
  Record<string, { type: "string" }>;

/** The create flags' lines in `--help`. */
export const CREATE_HELP: readonly OptionHelp[] = CREATE_FLAGS.flatMap((flag) => flag.help);
