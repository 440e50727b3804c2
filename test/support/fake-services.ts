/**
 * Services that misbehave in ways the emulator does not: one whose endpoint answers lack the
 * secret, one that accepts only a batch's first chunk until told otherwise, and a proxy in
 * front of the emulator that refuses chosen requests or alters its answers. All listen on 127.0.0.1, port 0;
 * `close()` ends them.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { recipientsOf } from "./emulator";

export interface FakeService {
  url: string;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<FakeService> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Creates endpoint `we_half_made` and answers without its secret. */
export function startHalfMadeEndpointService(): Promise<FakeService> {
  return listen(
    http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "we_half_made", url: "https://hooks.example.com/payments" }));
      });
    }),
  );
}

/**
 * Accepts each batch's first chunk (key ending `-0`) and answers the rest with a 503 until
 * `acceptAll`; replays a repeated idempotency key, as the emulator does.
 */
export async function startFirstChunkOnlyService(): Promise<FakeService & { acceptAll(): void; recipients(): string[] }> {
  const accepted = new Map<string, { id: string; messages: Array<{ tos: string[] }> }>();
  let acceptAll = false;
  const service = await listen(
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk) => chunks.push(chunk));
      req.on("end", () => {
        const key = String(req.headers["idempotency-key"]);
        const replay = accepted.get(key);
        // The first call is taken; every other is refused until acceptAll.
        if (!replay && !acceptAll && accepted.size > 0) {
          // Unavailable, as a service that the next run may find back: retried at once, then given up.
          res.writeHead(503, { "content-type": "application/problem+json", "retry-after": "0" });
          res.end(JSON.stringify({ title: "unavailable_for_test", status: 503 }));
          return;
        }
        const batch = replay ?? { id: `msba_fake_${accepted.size}`, messages: JSON.parse(Buffer.concat(chunks).toString()).messages };
        accepted.set(key, batch);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: batch.id }));
      });
    }),
  );
  return {
    ...service,
    acceptAll: () => {
      acceptAll = true;
    },
    recipients: () => recipientsOf([...accepted.values()]),
  };
}

/** A change to a JSON answer on its way back from the emulator: what a spoiled or odd answer looks like. */
export type AlterAnswer = (answer: Record<string, unknown>, path: string) => Record<string, unknown>;

/** What a proxy made by {@link startRefusingProxy} can be told to do. */
export interface RefusingProxy extends FakeService {
  /** While set, requests whose body contains it get a 400 and never reach the emulator. */
  refuse: string | undefined;
  /** While set, every JSON answer of the emulator is passed through it (the emulator has done the work, replays included). */
  alterAnswer: AlterAnswer | undefined;
  /** While set, awaited before each answer goes back: the caller waits for it, as for a slow service. */
  beforeAnswer: ((request: ForwardedRequest) => void | Promise<void>) | undefined;
  /** Requests forwarded to the emulator. */
  forwarded(): number;
  /** Every request forwarded, in order: method, path, idempotency key, content type and body. */
  requests(): ForwardedRequest[];
}

/** A request as the proxy forwarded it. */
export interface ForwardedRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
}

/**
 * Forwards every request to `target` (the emulator) except, while `refuse` is set, those whose
 * body contains it, which get a 400; while `alterAnswer` is set, answers are altered on the
 * way back, and while `beforeAnswer` is set, held until it is done. Counts what it forwarded.
 */
export async function startRefusingProxy(target: string): Promise<RefusingProxy> {
  const log: ForwardedRequest[] = [];
  const proxy = {
    refuse: undefined as string | undefined,
    alterAnswer: undefined as AlterAnswer | undefined,
    beforeAnswer: undefined as RefusingProxy["beforeAnswer"],
    forwarded: () => log.length,
    requests: () => [...log],
  };
  const service = await listen(
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        if (proxy.refuse !== undefined && body.toString().includes(proxy.refuse)) {
          res.writeHead(400, { "content-type": "application/problem+json" });
          res.end(JSON.stringify({ title: "refused_for_test", status: 400 }));
          return;
        }
        const header = (name: string) => (typeof req.headers[name] === "string" ? (req.headers[name] as string) : undefined);
        const forwarded: ForwardedRequest = {
          method: String(req.method),
          path: String(req.url),
          idempotencyKey: header("idempotency-key"),
          contentType: header("content-type"),
          body: body.toString(),
        };
        log.push(forwarded);
        request(`${target}${req.url}`, {
          method: req.method as "GET",
          headers: endToEnd(req.headers),
          body: body.length > 0 ? body : undefined,
        }).then(
          async (answer) => {
            let body = Buffer.from(await answer.body.arrayBuffer());
            await proxy.beforeAnswer?.(forwarded);
            const headers = endToEnd(answer.headers);
            const alter = proxy.alterAnswer;
            if (alter && String(answer.headers["content-type"]).startsWith("application/json")) {
              body = Buffer.from(JSON.stringify(alter(JSON.parse(body.toString()), String(req.url))));
              delete headers["content-length"];
            }
            res.writeHead(answer.statusCode, headers as http.OutgoingHttpHeaders);
            res.end(body);
          },
          (error: Error) => {
            res.writeHead(502);
            res.end(error.message);
          },
        );
      });
    }),
  );
  return Object.assign(proxy, service);
}

/** Headers without the hop-by-hop ones (and host), which belong to each connection. */
function endToEnd(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const { host: _h, connection: _c, "keep-alive": _k, "transfer-encoding": _t, ...rest } = headers;
  return rest;
}
