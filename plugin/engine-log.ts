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
  warn(message: string): void;
  /** Resolves once every line sent so far has reached the engine (or fell back to stderr). */
  flush(): Promise<void>;
}

/** Lines go to the engine's `Log`: the engine hides a resource plugin's stderr. */
export function engineLog(address: string): EngineLog {
  const client = new EngineClient(address, grpc.credentials.createInsecure());
  const pending = new Set<Promise<void>>();
  return {
    warn(message) {
      const [, label, text] = /^(warning|note): ([\s\S]*)$/.exec(message) ?? [undefined, undefined, message];
      const request = new LogRequest().setSeverity(label === "warning" ? LogSeverity.WARNING : LogSeverity.INFO).setMessage(text);
      const sent = new Promise<void>((resolve) =>
        client.log(request, (error) => {
          if (error) process.stderr.write(`${message}\n`);
          resolve();
        }),
      );
      pending.add(sent);
      void sent.then(() => pending.delete(sent));
    },
    async flush() {
      await Promise.all(pending);
    },
  };
}
