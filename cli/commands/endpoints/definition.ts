import type { Command } from "../command";

/** `messaging endpoints`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: [
    "endpoints create --url URL [--events TYPE,…] [--allow-unknown-type] [--format basic|cloudEvents] [--description TEXT] [--show-secret] [--json]",
    "endpoints list [--show-secret] [--json]",
    "endpoints secret <endpoint id>",
  ],
  summary: "creates webhook endpoints (service or emulator), lists the emulator's, prints a secret",
  // `create` takes them all; `list` and `secret` only --show-secret and --json.
  options: {
    url: { type: "string" },
    events: { type: "string", multiple: true },
    "allow-unknown-type": { type: "boolean" },
    format: { type: "string" },
    description: { type: "string" },
    "show-secret": { type: "boolean" },
    json: { type: "boolean" },
  },
} satisfies Command;
