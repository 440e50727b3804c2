/**
 * Lines for the user, through the engine's `Log`: placed under the resource they concern, and shown as the resource's status while
 * it works when `ephemeral`. The engine hides a resource plugin's stderr, and shows a dynamic provider host's as lines of the
 * whole stack, so both routes log this way; a process the engine did not start (a test, a script) writes to stderr.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";

/** The one positional argument, after the flags the engine may put first. */
export function engineAddress(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}

export interface EngineLog {
  /** A line the user reads: a warning when it starts `warning:`, else information (a leading `note:` is dropped). */
  warn(message: string, urn?: string): void;
  /** The resource's status while it works (progress): replaced by the next, and gone once the step ends. */
  status(message: string, urn: string): void;
  /** Resolves once every line sent so far has reached the engine (or fell back to stderr). */
  flush(): Promise<void>;
}

function parts(message: string): { severity: number; text: string; label?: string } {
  const [, label, text] = /^(warning|note): ([\s\S]*)$/.exec(message) ?? [undefined, undefined, message];
  return { severity: label === "warning" ? LogSeverity.WARNING : LogSeverity.INFO, text, label };
}

export function engineLog(address: string): EngineLog {
  const client = new EngineClient(address, grpc.credentials.createInsecure());
  const pending = new Set<Promise<void>>();
  const send = (request: LogRequest, fallback: string | undefined): void => {
    const sent = new Promise<void>((resolve) =>
      client.log(request, (error) => {
        if (error && fallback !== undefined) process.stderr.write(`${fallback}\n`);
        resolve();
      }),
    );
    pending.add(sent);
    void sent.then(() => pending.delete(sent));
  };
  return {
    warn(message, urn) {
      const { severity, text } = parts(message);
      send(
        new LogRequest()
          .setSeverity(severity)
          .setMessage(text)
          .setUrn(urn ?? ""),
        message,
      );
    },
    status(message, urn) {
      // A status lost is no loss: the next one, or the step's end, replaces it.
      send(new LogRequest().setSeverity(LogSeverity.INFO).setMessage(message).setUrn(urn).setEphemeral(true), undefined);
    },
    async flush() {
      await Promise.all(pending);
    },
  };
}

/** Lines to stderr; statuses are dropped. */
export const STDERR_LOG: EngineLog = {
  warn: (message) => void process.stderr.write(`${message}\n`),
  status: () => undefined,
  flush: async () => undefined,
};

let hostLog: EngineLog | undefined;

/**
 * Pulumi's dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`, the TypeScript route) is started by the engine with its
 * address, as a plugin is: its lines go to the engine's `Log` too. Any other process: stderr.
 */
export function processLog(): EngineLog {
  if (hostLog) return hostLog;
  const host = /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");
  const address = host ? engineAddress(process.argv.slice(2)) : undefined;
  return (hostLog = address === undefined ? STDERR_LOG : engineLog(address));
}
