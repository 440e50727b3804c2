import { Agent, request, type Dispatcher } from "undici";
import { readSetting, SETTINGS } from "../client/settings";
import { DEFAULT_EMULATOR_API_KEY } from "../emulator/auth";
import { describeFieldErrors, Problem } from "../schemas";

/** Where the CLI's emulator commands (`trigger`, `listen`, `endpoints list`) send their requests. */
export interface EmulatorTarget {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey: string;
}

/**
 * `MESSAGING_BASE_URL` (required) and `MESSAGING_API_KEY` (default: the emulator's public
 * key), or a sentence naming the one variable that is wrong. A bad URL is shown: it is not a
 * secret; the key never is.
 */
export function emulatorTarget(
  env: NodeJS.ProcessEnv,
  what = "the emulator's URL (printed by `messaging emulator`)",
): EmulatorTarget | string {
  const raw = readSetting("baseUrl", { env });
  if (raw === undefined) return `${SETTINGS.baseUrl.env} is not set: set it to ${what}`;
  const baseUrl = raw.replace(/\/+$/, "");
  let parsed: URL | undefined;
  try {
    parsed = new URL(baseUrl);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !/^https?:$/.test(parsed.protocol)) {
    return `${SETTINGS.baseUrl.env} is '${raw}', which is not an http(s) URL: set it to ${what}, e.g. http://127.0.0.1:4010`;
  }
  return { baseUrl, apiKey: readSetting("apiKey", { env }) ?? DEFAULT_EMULATOR_API_KEY };
}

/** An HTTP answer, read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** A connection to the emulator: Basic auth with the key, a 10 s connect timeout. */
export class EmulatorConnection {
  private readonly dispatcher: Dispatcher = new Agent({ connect: { timeout: 10_000 } });
  private readonly authorization: string;

  constructor(readonly target: EmulatorTarget) {
    this.authorization = `Basic ${Buffer.from(`${target.apiKey}:`).toString("base64")}`;
  }

  /** One request; `json` is sent with `Content-Type: application/json`. */
  async send(method: "GET" | "POST", path: string, json?: unknown, signal?: AbortSignal): Promise<Answer> {
    const response = await request(`${this.target.baseUrl}${path}`, {
      method,
      dispatcher: this.dispatcher,
      signal,
      headers: { authorization: this.authorization, ...(json !== undefined ? { "content-type": "application/json" } : {}) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** What a non-2xx answer says: the problem's detail and field errors, or the start of the body. */
export function describeAnswer(answer: Answer): string {
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    json = undefined;
  }
  const problem = Problem.safeParse(json);
  const detail = problem.success
    ? [problem.data.detail ?? problem.data.title, describeFieldErrors(problem.data.errors ?? {}, { indent: "  " })]
        .filter(Boolean)
        .join("\n")
    : answer.text.slice(0, 500);
  const hint = answer.status === 401 ? ` (set ${SETTINGS.apiKey.env} to the key the emulator was started with)` : "";
  return `HTTP ${answer.status}: ${detail}${hint}`;
}
