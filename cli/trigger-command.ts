import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { readSetting, SETTINGS } from "../client/settings";
import type { Delivery } from "../emulator";
import { DEFAULT_EMULATOR_API_KEY } from "../emulator/auth";
import { describeFieldErrors, findJsonHazards, jsonHazardField, Problem } from "../schemas";

const USAGE = `usage: messaging trigger <event-type> [--data JSON] [--previous JSON] [--no-wait]
  emits an event through a running emulator (MESSAGING_BASE_URL; key MESSAGING_API_KEY, default sk_test_emulator)
  --data      the related object (becomes data.object), or the whole data when it has an "object" member
  --previous  the object's previous values (data.previous)
  --no-wait   print the first attempts only, do not follow the retries`;

/** How often the retries of a delivery are looked up, in milliseconds. */
const POLL_MS = 200;

/** Where the command writes. */
export interface TriggerIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const processIo: TriggerIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

interface TriggerArgs {
  readonly type: string;
  readonly data?: Record<string, unknown>;
  readonly wait: boolean;
}

function jsonObject(flag: string, text: string, allowNull: boolean): Record<string, unknown> | null | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${flag} is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (value === null && allowNull) return null;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${flag} must be a JSON object${allowNull ? " or null" : ""}`;
  const hazard = findJsonHazards(value)[0];
  if (hazard !== undefined) return `${flag}: ${jsonHazardField(hazard)}: ${hazard.message}`;
  return value as Record<string, unknown>;
}

function parse(argv: string[]): TriggerArgs | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { data: { type: "string" }, previous: { type: "string" }, "no-wait": { type: "boolean" } },
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0].trim() === "") return "give exactly one event type, e.g. payment.succeeded";
  const data = values.data === undefined ? undefined : jsonObject("--data", values.data, false);
  if (typeof data === "string") return data;
  const previous = values.previous === undefined ? undefined : jsonObject("--previous", values.previous, true);
  if (typeof previous === "string") return previous;
  const payload =
    previous === undefined ? (data ?? undefined) : { object: data && "object" in data ? data.object : (data ?? {}), previous };
  return { type: positionals[0], data: payload ?? undefined, wait: values["no-wait"] !== true };
}

function describe(attempt: Delivery): string {
  const answer = attempt.status === null ? `no answer (${attempt.error ?? "failed"})` : `HTTP ${attempt.status}`;
  const outcome =
    attempt.outcome === "delivered"
      ? "delivered"
      : attempt.outcome === "retry_scheduled"
        ? `retry at ${attempt.nextAttemptAt}`
        : "failed, no more retries";
  return `  ${attempt.url}  attempt ${attempt.attempt}: ${answer} in ${attempt.durationMs} ms → ${outcome}  (${attempt.id})\n`;
}

/**
 * `messaging trigger <event-type> [--data JSON] [--previous JSON] [--no-wait]`: emits an event
 * through a running emulator (`POST /_emulator/events`) and prints each delivery's attempts
 * as they happen, following retries until every delivery is delivered or has failed.
 * @returns 0 when every delivery succeeded (or none was due), 1 when one failed or the
 *   emulator refused, 2 for bad arguments or settings.
 */
export async function runTriggerCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, io: TriggerIo = processIo): Promise<number> {
  const args = parse(argv);
  if (typeof args === "string") {
    io.stderr(`messaging trigger: ${args}\n${USAGE}\n`);
    return 2;
  }
  const baseUrl = readSetting("baseUrl", { env })?.replace(/\/+$/, "");
  if (!baseUrl || !/^https?:\/\/./.test(baseUrl)) {
    io.stderr(`messaging trigger: set ${SETTINGS.baseUrl.env} to the emulator's URL (printed by \`messaging emulator\`)\n`);
    return 2;
  }
  const apiKey = readSetting("apiKey", { env }) ?? DEFAULT_EMULATOR_API_KEY;
  const dispatcher = new Agent({ connect: { timeout: 10_000 } });
  const authorization = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
  try {
    const emitted = await request(`${baseUrl}/_emulator/events`, {
      method: "POST",
      dispatcher,
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ type: args.type, ...(args.data !== undefined ? { data: args.data } : {}) }),
    });
    const text = await emitted.body.text();
    if (emitted.statusCode !== 200) {
      const problem = Problem.safeParse(safeJson(text));
      const detail = problem.success
        ? [problem.data.detail, describeFieldErrors(problem.data.errors ?? {}, { indent: "  " })].filter(Boolean).join("\n")
        : text.slice(0, 500);
      io.stderr(`messaging trigger: the emulator answered HTTP ${emitted.statusCode}: ${detail}\n`);
      return 1;
    }
    const first = JSON.parse(text) as Delivery[];
    const eventId = String(emitted.headers["x-emulator-event-id"] ?? first[0]?.eventId ?? "");
    io.stdout(`event ${eventId} (${args.type}): ${first.length} endpoint(s) subscribed\n`);
    if (first.length === 0) return 0;
    for (const attempt of first) io.stdout(describe(attempt));

    const latest = new Map(first.map((attempt) => [attempt.id, attempt]));
    const printed = new Set(first.map((attempt) => `${attempt.id}#${attempt.attempt}`));
    while (args.wait && [...latest.values()].some((attempt) => attempt.outcome === "retry_scheduled")) {
      await sleep(POLL_MS);
      const listed = await request(`${baseUrl}/_emulator/deliveries?event=${encodeURIComponent(eventId)}`, {
        dispatcher,
        headers: { authorization },
      });
      if (listed.statusCode !== 200) {
        io.stderr(`messaging trigger: listing deliveries answered HTTP ${listed.statusCode}\n`);
        await listed.body.dump();
        return 1;
      }
      for (const attempt of (await listed.body.json()) as Delivery[]) {
        const key = `${attempt.id}#${attempt.attempt}`;
        if (printed.has(key)) continue;
        printed.add(key);
        io.stdout(describe(attempt));
        const known = latest.get(attempt.id);
        if (known === undefined || attempt.attempt > known.attempt) latest.set(attempt.id, attempt);
      }
    }
    const failed = [...latest.values()].filter((attempt) => attempt.outcome === "failed").length;
    const pending = [...latest.values()].filter((attempt) => attempt.outcome === "retry_scheduled").length;
    io.stdout(`${latest.size - failed - pending} delivered, ${failed} failed${pending > 0 ? `, ${pending} still retrying` : ""}\n`);
    return failed > 0 ? 1 : 0;
  } catch (error) {
    io.stderr(`messaging trigger: could not reach the emulator at ${baseUrl}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await dispatcher.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
