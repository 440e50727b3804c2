import type { Command } from "../command";

/** `messaging send`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: ["send --file FILE [--stream NAME] [options]"],
  summary: "sends every message of a file, each exactly once, however often it is run",
  options: {
    file: { type: "string" },
    stream: { type: "string" },
    format: { type: "string" },
    "batch-size": { type: "string" },
    concurrency: { type: "string" },
    "dry-run": { type: "boolean", default: false },
    "allow-changed": { type: "boolean", default: false },
    "in-flight": { type: "string" },
    resend: { type: "boolean", default: false },
    "send-id": { type: "string" },
    "state-dir": { type: "string" },
    "idempotency-key-prefix": { type: "string" },
    json: { type: "boolean", default: false },
  },
} satisfies Command;
