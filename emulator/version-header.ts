import { ApiVersion } from "../schemas";
import { problemReply } from "./problem-response";
import type { Reply } from "./reply";

/**
 * Checks the version header (`VERSION_HEADER`, spec §9) of a `/v1` request. The spec does
 * not say what happens without it; the emulator rejects, so a client that forgets it finds
 * out locally.
 * Returns the 400 reply to send, or undefined when the header is valid.
 */
export function checkVersionHeader(value: string | undefined): Reply | undefined {
  if (value === undefined || value.trim() === "") {
    return problemReply(
      400,
      "missing_version_header",
      "Every /v1 request must carry the X-Service-Version header with a date such as 2024-06-01.",
    );
  }
  if (!ApiVersion.safeParse(value.trim()).success) {
    return problemReply(
      400,
      "invalid_version_header",
      "The X-Service-Version header must be a calendar date written YYYY-MM-DD, such as 2024-06-01.",
    );
  }
  return undefined;
}
