import { type Command, valueOptions } from "../command";

/** `messaging events`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: ["events resend <event id> [--endpoint ID]"],
  summary: "delivers an event of the emulator again (after a receiver or its secret is fixed)",
  options: valueOptions("endpoint"),
} satisfies Command;
