import http from "node:http";
import type { AddressInfo } from "node:net";
import { ConfigurationError } from "../errors/messaging-error";
import { IDEMPOTENCY_KEY_MEMORY_MS } from "../schemas/idempotency-key";
import {
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_ENDPOINTS,
  DEFAULT_MAX_STORED_MESSAGES,
  EmulatorStore,
  readBatch,
  type StorageTotals,
} from "./storage";
import { DELIVERY_TIMEOUT_MS, DEFAULT_DELIVERY_RETRY_SCHEDULE, checkRetrySchedule, DeliveryQueue } from "./delivery";
import type { FaultSettings } from "./operations";
import type { BatchTotals, Delivery, RecordedBatch, RecordedEvent, EmulatedWebhookEndpoint } from "./records";
import { FaultInjector, faultSettingsOrThrow, type FaultSettingsInput, type ScriptedFault } from "./faults";
import { bodyWillBeRefused, handleRequest } from "./routes";
import { DEFAULT_EMULATOR_API_KEY, DEFAULT_MAX_IN_FLIGHT_BYTES, hostAllowList, IdempotencyStore, MemoryGuard } from "./http";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** TCP port. Default 0: any free port (read it from `url`). */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1` (loopback only). */
  host?: string;
  /**
   * Further `Host` names answered, beside loopback and `host`; `["*"]` answers any. Others get
   * 403, so a web page cannot reach the emulator through a name of its own (DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /** The API key requests must present as the HTTP Basic username. Default `sk_test_emulator`. */
  apiKey?: string;
  /** Most messages kept in accepted batches, the oldest evicted first. Default 1,000,000; 0 keeps none. */
  maxStoredMessages?: number;
  /**
   * Byte budget of everything kept. Past it the oldest batches are evicted, then events, then
   * delivery attempts; endpoints never are (a create that would not fit gets 409). Default 256 MiB.
   */
  maxStoredBytes?: number;
  /**
   * Most request-body bytes held at once; a request over it (or arriving when the heap is over
   * 85 % full) is answered 503 with `Retry-After`. Default 64 MiB.
   */
  maxInFlightBytes?: number;
  /** Seconds before each retry of a failed delivery. Default `[1, 2, 4, 8, 16]`; `[]` for none. */
  deliveryRetrySchedule?: readonly number[];
  /** Default 5,000 ms. */
  deliveryTimeoutMs?: number;
  /** Most webhook endpoints; creating more answers 409 `endpoint_limit_reached`. Default 10,000. */
  maxEndpoints?: number;
  /** Most idempotency keys remembered (oldest forgotten first). Default 10,000. */
  idempotencyMaxKeys?: number;
  /** How long an idempotency key is remembered, in seconds. Default 86,400 (24 h). */
  idempotencyTtlSeconds?: number;
}

/** A running emulator. The inspection helpers return copies of the same data as the `/_emulator/` routes. */
export interface Emulator {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly apiKey: string;
  /** Stops listening, drops open (keep-alive) connections, aborts deliveries and cancels retries. */
  close(): Promise<void>;
  endpoints(): EmulatedWebhookEndpoint[];
  /** Stored message batches, oldest first. */
  batches(): RecordedBatch[];
  /** Totals of accepted batches and messages since start, evicted ones included. */
  batchTotals(): BatchTotals;
  storageTotals(): StorageTotals;
  events(): RecordedEvent[];
  deliveries(): Delivery[];
  /** Resolves once no delivery attempt is in flight and no retry is scheduled. */
  deliveriesSettled(): Promise<void>;
  /** Requests received on `/v1` paths, rejected and faulted ones included. */
  requestCount(): number;
  /**
   * As `POST /_emulator/faults`: a random mix, `{ failureRate, seed?, kinds? }`, or a script,
   * `{ script: ["none", "drop_after_processing", …] }` for the next requests, then none.
   */
  setFaults(settings: FaultSettingsInput): FaultSettings;
  /** What each `/v1` request met since faults were last set, in order (`"none"`: served normally). */
  faultLog(): ScriptedFault[];
}

const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 60_000;

// A caller that changes what it was given must not change what the emulator recorded.
function copies<T>(items: Iterable<T>): T[] {
  return [...items].map((item) => structuredClone(item));
}

// The URL must be connectable: a wildcard bind is reached through loopback.
function urlHost(host: string, address: AddressInfo): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  const name = host === address.address || host.includes(":") ? address.address : host;
  return name.includes(":") ? `[${name}]` : name;
}

function wholeNumber(name: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0 || n > max)
    throw new ConfigurationError(`startEmulator: ${name} must be a whole number from 0 to ${max}, got ${n}`);
  return n;
}

/**
 * Starts a local HTTP server that behaves like the messaging service, plus the `/_emulator/`
 * routes. State is in memory, bounded, and lasts until `close()`.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? "127.0.0.1";
  const port = wholeNumber("port", options.port, 0, 65535);
  const apiKey = options.apiKey ?? DEFAULT_EMULATOR_API_KEY;
  if (typeof apiKey !== "string" || apiKey === "") throw new ConfigurationError("startEmulator: apiKey must be a non-empty string");
  const allowedHosts = hostAllowList(host, options.allowedHosts);
  const retrySchedule = options.deliveryRetrySchedule ?? DEFAULT_DELIVERY_RETRY_SCHEDULE;
  const badSchedule = checkRetrySchedule(retrySchedule);
  if (badSchedule !== undefined) throw new ConfigurationError(`startEmulator: ${badSchedule}`);

  const store = new EmulatorStore({
    maxStoredMessages: wholeNumber("maxStoredMessages", options.maxStoredMessages, DEFAULT_MAX_STORED_MESSAGES),
    maxEndpoints: wholeNumber("maxEndpoints", options.maxEndpoints, DEFAULT_MAX_ENDPOINTS),
    maxStoredBytes: wholeNumber("maxStoredBytes", options.maxStoredBytes, DEFAULT_MAX_STORED_BYTES),
  });
  const faults = new FaultInjector();
  const closing = new AbortController();
  const deliveries = new DeliveryQueue(store, {
    retrySchedule: [...retrySchedule],
    timeoutMs: wholeNumber("deliveryTimeoutMs", options.deliveryTimeoutMs, DELIVERY_TIMEOUT_MS),
    closing: closing.signal,
  });
  const idempotency = new IdempotencyStore({
    maxKeys: wholeNumber("idempotencyMaxKeys", options.idempotencyMaxKeys, 10_000),
    ttlMs: wholeNumber("idempotencyTtlSeconds", options.idempotencyTtlSeconds, IDEMPOTENCY_KEY_MEMORY_MS / 1000) * 1000,
  });
  let apiRequests = 0;
  const state = {
    apiKey,
    allowedHosts,
    store,
    faults,
    idempotency,
    deliveries,
    memory: new MemoryGuard({
      maxInFlightBytes: wholeNumber("maxInFlightBytes", options.maxInFlightBytes, DEFAULT_MAX_IN_FLIGHT_BYTES),
    }),
    countApiRequest: () => {
      apiRequests += 1;
    },
  };

  const server = http.createServer((req, res) => {
    void handleRequest(req, res, state);
  });
  // Slow clients are not held for Node's defaults (5 minutes for a request).
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  // `Expect: 100-continue`: a body that will be refused gets its final answer before it is sent.
  server.on("checkContinue", (req, res) => {
    if (!bodyWillBeRefused(req, state.memory)) res.writeContinue();
    void handleRequest(req, res, state);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(host, address)}:${address.port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    apiKey,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        // Without this, keep-alive sockets hold the server (and a test runner) open.
        server.closeAllConnections();
      });
      return closed;
    },
    endpoints: () => copies(store.endpoints()),
    batches: () => [...store.batches.page(undefined)].map(readBatch),
    batchTotals: () => store.batches.totals(),
    storageTotals: () => store.storageTotals(),
    events: () => copies(store.events()),
    deliveries: () => copies(store.deliveries()),
    deliveriesSettled: () => deliveries.settled(),
    requestCount: () => apiRequests,
    setFaults: (settings) => faults.configure(faultSettingsOrThrow(settings)),
    faultLog: () => faults.log(),
  };
}
