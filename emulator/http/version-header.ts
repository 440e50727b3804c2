import { ApiVersion } from "../../schemas";
import { problem } from "./problem-response";

/** The spec (§9) does not say what happens without it; rejecting lets a client that forgets it find out locally. */
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
