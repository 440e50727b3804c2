/**
 * Which service a base URL reaches, as a resource records it: a resource asked for under
 * another service's base URL is made anew there, while a respelling of the same URL is not.
 */

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/** The base URL as recorded: scheme, host, port and path, without credentials, query, fragment or trailing slash; undefined if it is no URL. */
export function serviceLocation(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
}

const isLoopback = (host: string): boolean => host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);

/** Loopback hosts are one host; a scheme's default port is implied. */
function canonical(location: string): string | undefined {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return undefined;
  }
  const host = isLoopback(url.hostname) ? "loopback" : url.hostname;
  const port = url.port || DEFAULT_PORTS[url.protocol] || "";
  return `${url.protocol}//${host}:${port}${url.pathname.replace(/\/+$/, "")}`;
}

/** Whether two base URLs (or recorded locations) reach the same service. */
export function sameService(a: string, b: string): boolean {
  const [left, right] = [canonical(a), canonical(b)];
  return left !== undefined && left === right;
}
