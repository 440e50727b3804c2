import { type Command, switchOptions } from "../command";
import { CREATE_OPTIONS, CREATE_USAGE } from "./create-flags";

/** `messaging endpoints`'s row in the registry; its create flags come from the create schema. */
export const definition = {
  usage: [
    `endpoints create ${CREATE_USAGE} [--show-secret] [--json]`,
    "endpoints list [--show-secret] [--json]",
    "endpoints secret <endpoint id>",
  ],
  summary: "creates webhook endpoints (service or emulator), lists the emulator's, prints a secret",
  // `create` takes them all; `list` and `secret` only --show-secret and --json.
  options: { ...CREATE_OPTIONS, ...switchOptions("show-secret", "json") },
} satisfies Command;
