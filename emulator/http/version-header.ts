import { ApiVersion } from "../../schemas";
import { problem } from "./problem-response";

/**
 * Checks the version header (`VERSION_HEADER`, spec §9) of a `/v1` request. The spec does
 * not say what happens without it; the emulator rejects, so a client that forgets it finds
 * out locally. Throws 400 `missing_version_header` or `invalid_version_header`.
 */
export function assertVersionHeader(value: string | string[] | undefined): void {
  if (value === undefined || (typeof value === "string" && value.trim() === "")) {
    throw problem(
      400,
      "missing_version_header",
      "Every /v1 request must carry the X-Service-Version header with a date such as 2024-06-01.",
    );
  }
  if (typeof value !== "string" || !ApiVersion.safeParse(value.trim()).success) {
    throw problem(
      400,
      "invalid_version_header",
      "The X-Service-Version header must be one calendar date written YYYY-MM-DD, such as 2024-06-01.",
    );
  }
}
