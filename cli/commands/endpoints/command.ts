import { MessagingClient } from "../../../client/messaging-client";
import { readSetting } from "../../../client/settings";
import { EmulatorClient } from "../../../emulator/operations";
import { isApiError, isMessagingError } from "../../../errors/messaging-error";
import { parseCommandArgs } from "../../command-args";
import { COMMANDS, usageError } from "..";
import { flagOf } from "./create-flags";
import { didYouMean } from "../../../schemas/did-you-mean";
import { describeRefusal, emulatorTarget, orRefusal, type EmulatorTarget } from "../../emulator-connection";
import { isEndpointFormat, parseEventsOption, parseFormatOption } from "../../endpoint-settings";
import { EXIT } from "../../exit-codes";
import { displaySecret } from "../../secret-display";
import { listedFields } from "../../../schemas/field-meta";
import { WebhookEndpointCreate } from "../../../schemas/webhook-endpoint";
import { processIo, type CommandIo } from "../../command-io";
import { programName } from "../../program-name";

const SUBCOMMANDS = ["create", "list", "secret"];

/** The create fields a listing shows (their `.meta({ listed })`), between the id and the secret. */
const LISTED = listedFields(WebhookEndpointCreate);

/** A listed value: a list comma-separated, an unset one `-`. */
const listed = (value: unknown): string =>
  value === null || value === undefined ? "-" : Array.isArray(value) ? value.join(",") : String(value);

/** Where the command writes. */
/** An endpoint as printed: the secret masked unless asked for. */
function shown<T extends { secret?: string | null }>(endpoint: T, showSecret: boolean): T {
  return endpoint.secret ? { ...endpoint, secret: displaySecret(endpoint.secret, showSecret) } : endpoint;
}

/**
 * `messaging endpoints create|list|secret`: creates a webhook endpoint on any base URL (the
 * service's `POST /v1/webhooks/endpoints`, or the emulator's), lists the emulator's, or
 * prints one endpoint's secret from the emulator (for `export X="$(…)"`; the service has no
 * list or retrieve operation). Secrets are masked unless `--show-secret`.
 * @returns an exit code of the shared table (0 done, 1 refused or unreachable, 2 bad arguments or settings).
 */
export async function runEndpointsCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CommandIo = processIo,
): Promise<number> {
  const [subcommand, ...rest] = argv;
  const fail = (why: string) => {
    io.stderr(usageError("endpoints", why));
    return EXIT.usage;
  };
  if (subcommand === undefined) return fail("give a subcommand: create, list or secret");
  if (!SUBCOMMANDS.includes(subcommand)) return fail(`unknown subcommand '${subcommand}'${didYouMean(subcommand, SUBCOMMANDS)}`);
  const target = emulatorTarget(env, "the service's or the emulator's URL");
  if (typeof target === "string") {
    io.stderr(`messaging endpoints: ${target}\n`);
    return EXIT.usage;
  }
  if (subcommand === "create") return create(rest, target, env, io, fail);
  const { "show-secret": showSecret, json } = COMMANDS.endpoints.options;
  const parsed = parseCommandArgs(rest, { "show-secret": showSecret, json }, subcommand === "secret");
  if ("error" in parsed) return fail(parsed.error);
  if (subcommand === "secret" && parsed.positionals.length !== 1) return fail("give one endpoint id, e.g. messaging endpoints secret we_…");
  const emulator = new EmulatorClient(target);
  try {
    const endpoints = await orRefusal(emulator.listEndpoints());
    if (isApiError(endpoints) && endpoints.status === 404) {
      io.stderr(
        `messaging endpoints: ${target.baseUrl} has no endpoint listing: the service offers no list or retrieve operation; ` +
          "this works against the emulator only (the service's dashboard lists them: Developers → Webhooks)\n",
      );
      return EXIT.failed;
    }
    if (isApiError(endpoints)) {
      io.stderr(`messaging endpoints: the emulator answered ${describeRefusal(endpoints)}\n`);
      return EXIT.failed;
    }
    if (subcommand === "secret") {
      const id = parsed.positionals[0];
      const endpoint = endpoints.find((candidate) => candidate.id === id);
      if (endpoint === undefined) {
        io.stderr(
          `messaging endpoints: no endpoint ${id} in the emulator at ${target.baseUrl}${didYouMean(
            id,
            endpoints.map((e) => e.id),
          )}\n`,
        );
        return EXIT.failed;
      }
      io.stdout(`${endpoint.secret}\n`); // what this subcommand is for: export X="$(messaging endpoints secret we_…)"
      return EXIT.ok;
    }
    const showSecret = parsed.values["show-secret"] === true;
    if (parsed.values.json) {
      io.stdout(`${JSON.stringify(endpoints.map((endpoint) => shown(endpoint, showSecret)))}\n`);
      return EXIT.ok;
    }
    if (endpoints.length === 0)
      io.stdout(`no webhook endpoints yet: ${programName()} endpoints create --url URL, or ${programName()} listen --forward-to URL\n`);
    for (const endpoint of endpoints) {
      const record = endpoint as Readonly<Record<string, unknown>>;
      const columns = LISTED.map(({ wireName }) => listed(record[wireName]));
      io.stdout(`${[endpoint.id, ...columns, displaySecret(endpoint.secret, showSecret)].join("  ")}\n`);
    }
    return EXIT.ok;
  } catch (error) {
    io.stderr(`messaging endpoints: could not reach ${target.baseUrl}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  } finally {
    await emulator.close();
  }
}

async function create(
  argv: string[],
  target: EmulatorTarget,
  env: NodeJS.ProcessEnv,
  io: CommandIo,
  fail: (why: string) => number,
): Promise<number> {
  const parsed = parseCommandArgs(argv, COMMANDS.endpoints.options, false);
  if ("error" in parsed) return fail(parsed.error);
  const { values } = parsed;
  if (values.url === undefined) return fail("--url is required: the URL the events are posted to");
  const events = parseEventsOption(values.events, values["allow-unknown-type"] === true);
  if (typeof events === "string") return fail(events);
  const format = parseFormatOption(values.format);
  if (!isEndpointFormat(format)) return fail(format);

  let client: MessagingClient;
  try {
    client = new MessagingClient({
      apiKey: target.apiKey,
      baseUrl: target.baseUrl,
      ...(readSetting("apiVersion", { env }) ? { apiVersion: readSetting("apiVersion", { env }) } : {}),
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  try {
    // Every create field has a flag of its name (test/cli/commands/endpoints/command.test.ts); those
    // not read above (`--description`) are sent as given.
    const given = Object.fromEntries(
      Object.keys(WebhookEndpointCreate.shape).flatMap((key) => {
        const value = (values as Record<string, unknown>)[flagOf(key)];
        return typeof value === "string" ? [[key, value]] : [];
      }),
    );
    const endpoint = await client.createWebhookEndpoint({ ...given, url: values.url, events: [...events], format });
    const showSecret = values["show-secret"] === true;
    if (values.json) {
      io.stdout(`${JSON.stringify(shown(endpoint, showSecret))}\n`);
      return EXIT.ok;
    }
    io.stdout(`created ${endpoint.id}: ${endpoint.url} (${(endpoint.events ?? events).join(", ")}; ${endpoint.format ?? format})\n`);
    if (endpoint.secret) {
      io.stdout(`signing secret: ${displaySecret(endpoint.secret, showSecret)}${showSecret ? "" : "  (--show-secret prints it)"}\n`);
    }
    return EXIT.ok;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    io.stderr(`messaging endpoints create: ${why}\n`);
    return isMessagingError(error) && error.code === "invalid_input" ? EXIT.usage : EXIT.failed;
  } finally {
    await client.close();
  }
}

/** The registry's entry points (`CommandModule`). */
export const run = (argv: string[]): Promise<number> => runEndpointsCommand(argv);
export const help = async (): Promise<string> => (await import("./help")).HELP;
