import { ConfigurationError } from "../../errors/messaging-error";
import { problem } from "./problem-response";

const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

const ANY_HOST = "*";

export type HostAllowList = ReadonlySet<string> | typeof ANY_HOST;

// A DNS name or an IPv4 address, or an IPv6 address in brackets: no port, no spaces.
const HOST_NAME = /^(?:[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?|\[[0-9a-f:.]+\])$/i;

/** An IPv6 address (two colons or more) is written in brackets in a Host header; a name is compared in lower case. */
function hostName(name: string): string {
  const lower = name.toLowerCase();
  const ipv6 = lower.indexOf(":") !== lower.lastIndexOf(":");
  return ipv6 && !lower.startsWith("[") ? `[${lower}]` : lower;
}

export function isHostName(name: string): boolean {
  return name === ANY_HOST || (typeof name === "string" && HOST_NAME.test(hostName(name)));
}

/** A wildcard listen host is left out: `0.0.0.0` and `::` are not names a client uses. */
export function hostAllowList(listenHost: string, extra: readonly string[] = []): HostAllowList {
  if (!Array.isArray(extra)) throw new ConfigurationError("startEmulator: allowedHosts must be an array of host names");
  if (extra.includes(ANY_HOST)) return ANY_HOST;
  const names = new Set(LOOPBACK_HOSTS);
  if (listenHost !== "" && listenHost !== "0.0.0.0" && listenHost !== "::") names.add(hostName(listenHost));
  for (const entry of extra) {
    if (!isHostName(entry))
      throw new ConfigurationError(
        `startEmulator: allowedHosts entries must be host names without a port (or "${ANY_HOST}" for any), got ${JSON.stringify(entry)}`,
      );
    names.add(hostName(entry));
  }
  return names;
}

function nameOf(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  const colon = value.indexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * DNS rebinding: a page whose own name resolves to 127.0.0.1 can make a browser send requests
 * here, with the public default key, but under that site's name as `Host`. A request without
 * `Host` (HTTP/1.0, never a browser) is let through.
 */
export function assertHostAllowed(header: string | undefined, allowed: HostAllowList): void {
  if (allowed === ANY_HOST || header === undefined) return;
  const name = nameOf(header);
  if (allowed.has(name)) return;
  const shown = JSON.stringify(header.slice(0, 100));
  throw problem(
    403,
    "host_not_allowed",
    `The Host header ${shown} is not a name this emulator answers to (${[...allowed].join(", ")}). ` +
      `To reach it by another name, start it with --allowed-host NAME (startEmulator: allowedHosts).`,
  );
}
