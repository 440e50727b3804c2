/** `messaging endpoints --help` (and `messaging help endpoints`): loaded only when asked for; its defaults are the code's own constants, so the text cannot drift from them. */
import { DEFAULT_EMULATOR_API_KEY } from "../../../emulator";
import { exitCodesHelp } from "../../exit-codes";
import { listedFields } from "../../../schemas/field-meta";
import { WebhookEndpointCreate } from "../../../schemas/webhook-endpoint";
import { usageLines } from "..";
import { CREATE_HELP, type OptionHelp } from "./create-flags";

/** `  --flag ARG  text`, the text from column 22 (on the next line after a longer flag), wrapped at 70 characters. */
function optionLine({ flag, text }: OptionHelp): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    if (lines.length > 0 && `${lines[lines.length - 1]} ${word}`.length <= 70) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  const head = `  ${flag}`;
  const indent = " ".repeat(21);
  return head.length <= 20
    ? [`${head.padEnd(21)}${lines[0]}`, ...lines.slice(1).map((line) => `${indent}${line}`)].join("\n")
    : [head, ...lines.map((line) => `${indent}${line}`)].join("\n");
}

// The listing's columns, from the create schema's `.meta({ listed })`.
const LISTED_COLUMNS = ["id", ...listedFields(WebhookEndpointCreate).map(({ key }) => key), "secret"].join(", ");

export const HELP = `messaging endpoints — create and list webhook endpoints

${usageLines("endpoints")}

create  creates an endpoint with POST /v1/webhooks/endpoints at MESSAGING_BASE_URL: the
        service or the emulator. Prints its id and its signing secret, masked unless
        --show-secret (--json: the endpoint object, secret masked likewise).
list    lists the emulator's endpoints, one a line (- for a field not set):
        ${LISTED_COLUMNS}
        The service has no list operation; its dashboard shows them under
        Developers → Webhooks.
secret  prints one endpoint's signing secret, from the emulator, and nothing else:
        export MESSAGING_WEBHOOK_SECRET="$(messaging endpoints secret we_…)"

options:
${CREATE_HELP.map(optionLine).join("\n")}
  --show-secret      print signing secrets instead of masking them
  --json             print JSON on stdout
  -h, --help         this help

environment:
  MESSAGING_BASE_URL     the service's or the emulator's URL (required)
  MESSAGING_API_KEY      the API key (default: ${DEFAULT_EMULATOR_API_KEY}, the emulator's)
  MESSAGING_API_VERSION  X-Service-Version (default: 2024-06-01)

${exitCodesHelp()}`;
