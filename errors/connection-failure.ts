/**
 * What a failed connection means for the user. In all but `other` (a reset, a broken pipe…) the request never reached the
 * service, so it cannot have taken effect. `tls_to_plain_http`: an `https://` URL answered in plain HTTP.
 */
export type ConnectionFailureKind = "refused" | "name_not_resolved" | "tls_to_plain_http" | "other";

const TLS_TO_PLAIN_HTTP_CODES = new Set(["ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG", "ERR_SSL_HTTP_REQUEST"]);

export function connectionFailureKind(error: unknown): ConnectionFailureKind {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === "ECONNREFUSED") return "refused";
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "name_not_resolved";
    if (typeof code === "string" && TLS_TO_PLAIN_HTTP_CODES.has(code)) return "tls_to_plain_http";
    if (typeof message === "string" && /wrong version number|packet length too long|http request/i.test(message) && /ssl/i.test(message))
      return "tls_to_plain_http";
    current = (current as { cause?: unknown }).cause;
  }
  return "other";
}

/** What to check for a failure of that kind, as a sentence about "the base URL"; undefined for `other`. */
export function connectionFailureAdvice(kind: ConnectionFailureKind): string | undefined {
  switch (kind) {
    case "refused":
      return "nothing accepts connections there: check the base URL, and that the service is running (for local development, start the emulator: npx -p pulumi-messaging messaging emulator)";
    case "name_not_resolved":
      return "the host name does not resolve: check the base URL";
    case "tls_to_plain_http":
      return "the server answered an https:// connection in plain HTTP: use http:// in the base URL";
    case "other":
      return undefined;
  }
}
