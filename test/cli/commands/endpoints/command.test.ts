/** messaging endpoints create|list|secret, in-process, against a real emulator on 127.0.0.1 port 0. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { COMMANDS } from "../../../../cli/commands";
import { runEndpointsCommand } from "../../../../cli/commands/endpoints/command";
import { listedFields, wireNameOf } from "../../../../schemas/field-meta";
import { WebhookEndpointCreate } from "../../../../schemas";
import { startEmulator, type Emulator } from "../../../../emulator";
import { CapturedOutput } from "../../../support/cli-output";

let emulator: Emulator;
let notAnEmulator: Server;
let notAnEmulatorUrl: string;

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: "sk_test_endpoints" });
  // Stands in for the real service: no /_emulator/ routes.
  notAnEmulator = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/problem+json" });
    res.end(JSON.stringify({ type: "about:blank", title: "not_found", status: 404 }));
  });
  await new Promise<void>((resolve) => notAnEmulator.listen(0, "127.0.0.1", resolve));
  notAnEmulatorUrl = `http://127.0.0.1:${(notAnEmulator.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator?.close();
  notAnEmulator?.closeAllConnections();
  await new Promise<void>((resolve) => (notAnEmulator ? notAnEmulator.close(() => resolve()) : resolve()));
});

async function endpoints(argv: string[], extra: Record<string, string | undefined> = {}) {
  const output = new CapturedOutput();
  const code = await runEndpointsCommand(
    argv,
    { MESSAGING_BASE_URL: emulator.url, MESSAGING_API_KEY: "sk_test_endpoints", ...extra },
    output.io,
  );
  return { code, stdout: output.stdout, stderr: output.stderr };
}

describe("messaging endpoints", () => {
  it("create has a flag for every field of the create schema, in its usage, and sends each one", async () => {
    const fields = Object.keys(WebhookEndpointCreate.shape);
    const flag = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    expect(fields.filter((key) => !Object.hasOwn(COMMANDS.endpoints.options, flag(key)))).toEqual([]);
    expect(fields.filter((key) => !COMMANDS.endpoints.usage[0].includes(`--${flag(key)} `))).toEqual([]);

    // The fields the command reads itself get values of their kind; any other is text sent as given.
    const special: Record<string, string | string[]> = {
      url: "https://receiver.example/every-field",
      events: ["payment.succeeded"],
      format: "cloudEvents",
    };
    const values = Object.fromEntries(fields.map((key) => [key, special[key] ?? `${key} of every-field`]));
    const argv = Object.entries(values).flatMap(([key, value]) => [`--${flag(key)}`, Array.isArray(value) ? value.join(",") : value]);
    expect((await endpoints(["create", ...argv])).code).toBe(0);
    const recorded = emulator.endpoints().find((endpoint) => endpoint.url === values.url);
    // The service's object names each field as the wire does (`.meta({ wireName })`).
    expect(recorded).toMatchObject(
      Object.fromEntries(Object.entries(values).map(([key, value]) => [wireNameOf(WebhookEndpointCreate, key), value])),
    );
  });

  it("create: subscribes to every named type by default and prints the id, the secret masked", async () => {
    const { code, stdout } = await endpoints(["create", "--url", "https://receiver.example/a", "--description", "orders"]);
    expect(code).toBe(0);
    const created = emulator.endpoints().at(-1)!;
    expect(created).toMatchObject({ url: "https://receiver.example/a", description: "orders", format: "basic" });
    expect(created.events).toEqual(["identity.verification.created", "payment.succeeded"]);
    expect(stdout).toContain(`created ${created.id}: https://receiver.example/a`);
    expect(stdout).toContain("signing secret: whsec_************  (--show-secret prints it)");
    expect(stdout).not.toContain(created.secret);
  });

  it("create --show-secret --json prints the endpoint object with its secret; --json alone masks it", async () => {
    const shown = await endpoints([
      "create",
      "--url",
      "https://receiver.example/b",
      "--events",
      "payment.succeeded",
      "--json",
      "--show-secret",
    ]);
    const object = JSON.parse(shown.stdout);
    expect(object).toMatchObject({ id: expect.stringMatching(/^we_/), events: ["payment.succeeded"] });
    expect(object.secret).toBe(emulator.endpoints().find((e) => e.id === object.id)!.secret);
    const masked = JSON.parse((await endpoints(["create", "--url", "https://receiver.example/c", "--json"])).stdout);
    expect(masked.secret).toBe("whsec_************");
  });

  it("list: every endpoint of the emulator, secrets masked unless --show-secret", async () => {
    const listed = await endpoints(["list"]);
    expect(listed.code).toBe(0);
    for (const endpoint of emulator.endpoints()) {
      expect(listed.stdout).toContain(`${endpoint.id}  ${endpoint.url}`);
      expect(listed.stdout).not.toContain(endpoint.secret);
    }
    // One line an endpoint: its id, each field its schema lists (`.meta({ listed })`, in its order; - when unset), its secret
    // masked. The fields after these four are ones these endpoints left unset.
    const line = (id: string, shown: string[]) =>
      `${[
        id,
        ...shown,
        ...listedFields(WebhookEndpointCreate)
          .slice(shown.length)
          .map(() => "-"),
        "whsec_************",
      ].join("  ")}\n`;
    expect(
      listedFields(WebhookEndpointCreate)
        .slice(0, 4)
        .map(({ key }) => key),
    ).toEqual(["url", "events", "format", "description"]);
    const described = emulator.endpoints().find((endpoint) => endpoint.description === "orders")!;
    expect(listed.stdout).toContain(
      line(described.id, ["https://receiver.example/a", "identity.verification.created,payment.succeeded", "basic", "orders"]),
    );
    const plain = emulator.endpoints().find((endpoint) => endpoint.url === "https://receiver.example/b")!;
    expect(listed.stdout).toContain(line(plain.id, ["https://receiver.example/b", "payment.succeeded", "basic", "-"]));
    const json = JSON.parse((await endpoints(["list", "--json", "--show-secret"])).stdout);
    expect(json.map((e: { secret: string }) => e.secret)).toEqual(emulator.endpoints().map((e) => e.secret));
  });

  it("secret: prints exactly one endpoint's secret; an unknown id exits 1", async () => {
    const endpoint = emulator.endpoints()[0];
    expect(await endpoints(["secret", endpoint.id])).toEqual({ code: 0, stdout: `${endpoint.secret}\n`, stderr: "" });
    const unknown = await endpoints(["secret", "we_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no endpoint we_nope");
  });

  it("list against the service (no /_emulator/ routes) says it has no list operation, exit 1", async () => {
    const run = await endpoints(["list"], { MESSAGING_BASE_URL: notAnEmulatorUrl });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the service offers no list or retrieve operation");
  });

  it("a wrong key: exit 1, the key not echoed", async () => {
    const run = await endpoints(["create", "--url", "https://receiver.example/d"], { MESSAGING_API_KEY: "sk_test_wrong_key" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("401");
    expect(run.stderr).not.toContain("sk_test_wrong_key");
  });

  it.each([
    [[], "give a subcommand"],
    [["craete"], "unknown subcommand 'craete' (did you mean create?)"],
    [["create"], "--url is required"],
    [["create", "--url", "https://x.example", "--events", "payment.sucess"], "add --allow-unknown-type"],
    [["create", "--url", "https://x.example", "--events", "payment.succeded"], "did you mean payment.succeeded?"],
    [["create", "--url", "https://x.example", "--format", "basics"], "did you mean basic?"],
    [["list", "--show-secrets"], "unknown option --show-secrets (did you mean --show-secret?)"],
    [["secret"], "give one endpoint id"],
  ])("exits 2 for %p", async (argv, message) => {
    const run = await endpoints(argv as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("create: an invalid URL is refused before any request, naming the field (exit 2)", async () => {
    const before = emulator.endpoints().length;
    const run = await endpoints(["create", "--url", "ftp://x.example"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("url");
    expect(emulator.endpoints()).toHaveLength(before);
  });
});

it("create --allow-unknown-type subscribes to a type that is not named", async () => {
  const run = await endpoints(["create", "--url", "https://receiver.example/e", "--events", "order.shipped", "--allow-unknown-type"]);
  expect(run.code).toBe(0);
  expect(emulator.endpoints().at(-1)!.events).toEqual(["order.shipped"]);
});
