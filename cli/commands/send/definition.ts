import { type Command, valueOptions, switchOptions } from "../command";

/** `messaging send`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: ["send --file FILE [--stream NAME] [options]"],
  summary: "sends every message of a file, each exactly once, however often it is run",
  options: {
    ...valueOptions(
      "file",
      "stream",
      "format",
      "batch-size",
      "concurrency",
      "in-flight",
      "send-id",
      "state-dir",
      "idempotency-key-prefix",
      "max-messages",
    ),
    ...switchOptions("dry-run", "allow-changed", "resend", "json"),
  },
} satisfies Command;
