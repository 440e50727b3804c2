/**
 * `pulumi-messaging/client`, `/receiver` and `/emulator` in a project without
 * `@pulumi/pulumi` (an optional peer dependency): the packed tarball installed beside its
 * own dependencies only.
 */
import * as path from "node:path";
import { PackedTarball, packageDependencies, runNode } from "../support/installed-package";

let packed: PackedTarball;
let project: string;

beforeAll(() => {
  packed = new PackedTarball();
  project = packed.project({ "package.json": JSON.stringify({ name: "no-pulumi", private: true }) }, packageDependencies());
});

afterAll(() => packed?.cleanup());

/** Runs a CommonJS script in the project; returns what it printed as JSON. */
async function script(source: string): Promise<Record<string, unknown>> {
  const run = await runNode(["-e", source], project);
  if (run.code !== 0) throw new Error(`script failed (${run.code}): ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe("installed without @pulumi/pulumi", () => {
  it("has no @pulumi/pulumi to find", async () => {
    const run = await runNode(["-e", 'require.resolve("@pulumi/pulumi")'], project);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("Cannot find module '@pulumi/pulumi'");
  });

  it("the client sends a batch to the emulator, both from their subpaths", async () => {
    const result = await script(`
      const { MessagingClient, isValidationError } = require("pulumi-messaging/client");
      const { startEmulator } = require("pulumi-messaging/emulator");
      (async () => {
        const emulator = await startEmulator({ port: 0 });
        const client = new MessagingClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
        try {
          const batch = await client.sendMessageBatch({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hi" }] });
          let invalid;
          try { await client.sendMessageBatch({ stream: "transactional", messages: [{ tos: ["0712"], body: "x" }] }); }
          catch (error) { invalid = isValidationError(error); }
          console.log(JSON.stringify({ id: batch.id, recorded: emulator.batches().length, invalid }));
        } finally {
          await client.close();
          await emulator.close();
        }
      })().catch((error) => { console.error(error); process.exit(1); });
    `);
    expect(result).toEqual({ id: expect.stringMatching(/^msba_/), recorded: 1, invalid: true });
  });

  it("the receiver verifies and parses a signed event", async () => {
    const result = await script(`
      const { signPayload, constructEvent, isSignatureVerificationError } = require("pulumi-messaging/receiver");
      const body = JSON.stringify({ id: "evt_1", type: "payment.succeeded", created: "2024-06-01T00:00:00Z", data: { object: { id: "pay_1" } } });
      const event = constructEvent(body, signPayload(body, "whsec_test"), "whsec_test");
      let rejected = false;
      try { constructEvent(body + " ", signPayload(body, "whsec_test"), "whsec_test"); } catch (error) { rejected = isSignatureVerificationError(error); }
      console.log(JSON.stringify({ type: event.type, id: event.id, rejected }));
    `);
    expect(result).toEqual({ type: "payment.succeeded", id: "evt_1", rejected: true });
  });

  it("the schemas and errors subpaths load; the root says it needs @pulumi/pulumi", async () => {
    const result = await script(`
      const { Message } = require("pulumi-messaging/schemas");
      const { isMessagingError } = require("pulumi-messaging/errors");
      let root, rootCode;
      try { require("pulumi-messaging"); root = "loaded"; } catch (error) { root = error.message; rootCode = error.code; }
      console.log(JSON.stringify({ valid: Message.safeParse({ tos: ["+254712345678"], body: "x" }).success, errors: typeof isMessagingError, root, rootCode }));
    `);
    expect(result).toMatchObject({ valid: true, errors: "function", rootCode: "configuration_error" });
    // The message says what is missing and names every subpath that works without it.
    expect(result.root).toContain("Cannot find module '@pulumi/pulumi'");
    for (const subpath of ["receiver", "receiver/web", "client", "emulator", "schemas", "errors"]) {
      expect(result.root).toContain(`pulumi-messaging/${subpath}`);
    }
  });

  it("keeps the module path old stacks' serialized providers require, and package.json", async () => {
    const result = await script(`
      console.log(JSON.stringify({
        runtime: require.resolve("pulumi-messaging/dist/provider/runtime"),
        version: require("pulumi-messaging/package.json").version,
      }));
    `);
    expect(result.runtime).toBe(path.join(project, "node_modules", "pulumi-messaging", "dist", "provider", "runtime.js"));
    expect(result.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("runs the messaging CLI", async () => {
    const run = await runNode([path.join("node_modules", "pulumi-messaging", "dist", "cli", "main.js"), "--help"], project);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("messaging send");
  });
});
