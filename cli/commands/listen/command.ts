import { setTimeout as sleep } from "node:timers/promises";
import { MessagingClient } from "../../../client/messaging-client";
import { SETTINGS } from "../../../client/settings";
import type { Delivery, Emulator } from "../../../emulator";
import type { WebhookFormat } from "../../../schemas/types";
import { EmulatorClient } from "../../../emulator/operations";
import { isApiError } from "../../../errors/messaging-error";
import { parseCommandArgs } from "../../command-args";
import { COMMANDS, usageError } from "..";
import { describeRefusal, emulatorTarget, orRefusal, type EmulatorTarget } from "../../emulator-connection";
import { isEndpointFormat, parseEventsOption, parseFormatOption } from "../../endpoint-settings";
import { EXIT } from "../../exit-codes";
import { displaySecret } from "../../secret-display";
import { processIo, type CommandIo } from "../../command-io";
import { receiverAnswer } from "../../delivery-line";
import { programName } from "../../program-name";

/** How often new delivery attempts are looked up, in milliseconds. */
export const LISTEN_POLL_MS = 250;

/** The variable the printed export line sets, and the README's receivers read. */
export const SECRET_VARIABLE = "MESSAGING_WEBHOOK_SECRET";

/** Where the command writes, and what stops it (Ctrl-C and SIGTERM by default). */
export interface ListenIo extends CommandIo {
  /** Aborted to stop listening. Default: aborted on SIGINT or SIGTERM. */
  readonly stop?: AbortSignal;
}

interface ListenArgs {
  readonly forwardTo: string;
  readonly events: readonly string[];
  readonly format: WebhookFormat;
  readonly showSecret: boolean;
}

function parse(argv: string[]): ListenArgs | string {
  const parsed = parseCommandArgs(argv, COMMANDS.listen.options, false);
  if ("error" in parsed) return parsed.error;
  const { values } = parsed;
  const forwardTo = values["forward-to"];
  if (forwardTo === undefined) return "--forward-to is required: your receiver's URL, e.g. http://localhost:3000/webhooks";
  let url: URL | undefined;
  try {
    url = new URL(forwardTo);
  } catch {
    url = undefined;
  }
  if (url === undefined || !/^https?:$/.test(url.protocol)) return `--forward-to must be an http(s) URL, got '${forwardTo}'`;
  const events = parseEventsOption(values.events, values["allow-unknown-type"] === true);
  if (typeof events === "string") return events;
  const format = parseFormatOption(values.format);
  if (!isEndpointFormat(format)) return format;
  return { forwardTo, events, format, showSecret: values["show-secret"] === true };
}

/** One line per attempt, as `listen` logs them: when, event id, type, attempt, status, ms, and why it failed (with what the receiver answered). */
export function listenLine(attempt: Delivery): string {
  const answer = attempt.status === null ? "no answer" : String(attempt.status);
  const said = attempt.responseBody ? `: ${receiverAnswer(attempt.responseBody)}` : "";
  const why =
    attempt.outcome === "delivered"
      ? ""
      : `  ${attempt.error ?? `HTTP ${attempt.status}${said}`}${attempt.outcome === "retry_scheduled" ? `, retry at ${attempt.nextAttemptAt?.slice(11, 23)}` : ", no more retries"}`;
  return `${attempt.attemptedAt.slice(11, 23)}  ${attempt.eventId}  ${attempt.type}  attempt ${attempt.attempt}  → ${answer}  ${Math.round(attempt.durationMs)} ms${why}\n`;
}

function sameEvents(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((type) => b.includes(type));
}

function signalStop(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}

/**
 * `messaging listen` (options: `definition.ts`). Reuses an endpoint with the same URL, events
 * and format; prints the secret itself only with `--show-secret`.
 * @returns 0 stopped by Ctrl-C or SIGTERM, 1 the emulator refused or could not be reached,
 *   2 bad arguments or settings
 */
export async function runListenCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, io?: Partial<ListenIo>): Promise<number> {
  const out = io?.stdout ?? processIo.stdout;
  const err = io?.stderr ?? processIo.stderr;
  const args = parse(argv);
  if (typeof args === "string") {
    err(usageError("listen", args));
    return EXIT.usage;
  }
  const signals = io?.stop === undefined ? signalStop() : undefined;
  const stop = io?.stop ?? signals!.signal;

  let started: Emulator | undefined;
  let target: EmulatorTarget | string;
  if (env[SETTINGS.baseUrl.env]) {
    target = emulatorTarget(env);
  } else {
    // Loaded only when needed: against a running emulator the command stays light.
    started = await (await import("../../../emulator")).startEmulator({ port: 0 });
    target = { baseUrl: started.url, apiKey: started.apiKey };
    out(`started an emulator at ${started.url} (${SETTINGS.baseUrl.env} is not set); in other terminals:\n`);
    out(`  export ${SETTINGS.baseUrl.env}=${started.url}\n`);
  }
  if (typeof target === "string") {
    err(`messaging listen: ${target}\n`);
    signals?.dispose();
    return EXIT.usage;
  }
  const emulator = new EmulatorClient(target);
  try {
    const listed = await orRefusal(emulator.listEndpoints());
    if (isApiError(listed)) {
      const notEmulator = listed.status === 404 ? " (is it an emulator? listen needs the emulator's /_emulator/ routes)" : "";
      err(`messaging listen: ${target.baseUrl} answered ${describeRefusal(listed)}${notEmulator}\n`);
      return EXIT.failed;
    }
    const existing = listed.find(
      (endpoint) => endpoint.url === args.forwardTo && endpoint.format === args.format && sameEvents(endpoint.events, args.events),
    );
    const endpoint = existing ?? (await createEndpoint(target, args));
    if (typeof endpoint === "string") {
      err(`messaging listen: ${endpoint}\n`);
      return EXIT.failed;
    }
    out(`${existing ? "reusing" : "created"} endpoint ${endpoint.id}: ${args.events.join(", ")} (${args.format}) → ${args.forwardTo}\n`);
    out(`signing secret: ${displaySecret(endpoint.secret, args.showSecret)}; for your receiver:\n`);
    out(
      args.showSecret
        ? `  export ${SECRET_VARIABLE}=${endpoint.secret}\n`
        : `  export ${SECRET_VARIABLE}="$(${programName()} endpoints secret ${endpoint.id})"\n`,
    );

    // Attempts made before now are not news. Each listing asks only for the attempts recorded
    // since the previous one (`after`); the set guards against an emulator started afresh.
    const printed = new Set<string>();
    const key = (attempt: Delivery) => `${attempt.id}#${attempt.attempt}`;
    let recorded = 0;
    const poll = async (print: boolean): Promise<boolean> => {
      const listed = await orRefusal(emulator.listDeliveries({ after: recorded }, stop));
      if (isApiError(listed)) {
        err(`messaging listen: listing deliveries: ${describeRefusal(listed)}
`);
        return false;
      }
      recorded = listed.recorded;
      for (const attempt of listed.attempts) {
        if (attempt.endpointId !== endpoint.id || printed.has(key(attempt))) continue;
        printed.add(key(attempt));
        if (print) out(listenLine(attempt));
      }
      return true;
    };
    if (!(await poll(false))) return EXIT.failed;
    const example = args.events.includes("payment.succeeded") ? "payment.succeeded" : args.events[0];
    out(`ready: forwarding deliveries (try: ${programName()} trigger ${example}); Ctrl-C to stop\n`);
    while (!stop.aborted) {
      await sleep(LISTEN_POLL_MS, undefined, { signal: stop }).catch(() => undefined);
      if (stop.aborted) break;
      if (!(await poll(true).catch((error: unknown) => (stop.aborted ? true : Promise.reject(error))))) return EXIT.failed;
    }
    out("stopped\n");
    return EXIT.ok;
  } catch (error) {
    err(`messaging listen: could not reach the emulator at ${target.baseUrl}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  } finally {
    signals?.dispose();
    await emulator.close();
    await started?.close();
  }
}

async function createEndpoint(target: EmulatorTarget, args: ListenArgs): Promise<{ id: string; secret: string } | string> {
  const client = new MessagingClient({ apiKey: target.apiKey, baseUrl: target.baseUrl });
  try {
    const created = await client.createWebhookEndpoint({
      url: args.forwardTo,
      events: [...args.events],
      format: args.format,
      description: "messaging listen",
    });
    if (!created.secret) return `the endpoint ${created.id} was created without a secret`;
    return { id: created.id, secret: created.secret };
  } catch (error) {
    return `creating the endpoint failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.close();
  }
}

/** The registry's entry points (`CommandModule`). */
export const run = (argv: string[]): Promise<number> => runListenCommand(argv);
export const help = async (): Promise<string> => (await import("./help")).HELP;
