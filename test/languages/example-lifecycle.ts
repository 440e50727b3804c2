/**
 * What every language's example (examples/python, examples/go, examples/typescript-sdk: an
 * endpoint `payments` and a batch `welcome` through the plugin) goes through under the real CLI,
 * in one stack, checking at each step what a user relies on: preview with no service call; up,
 * through the plugin's own types, the endpoint as declared, its secret a secret output absent from
 * `pulumi stack export`, the batch accepted once; an unchanged up and a refresh with no call; and
 * destroy, which retains the endpoint (the service has no delete).
 */
import type { PulumiStack, RealEngineSuite } from "../support/real-engine";
import { expectOk, opsByName, output } from "../support/real-engine";

export async function exampleLifecycle(suite: RealEngineSuite, stack: PulumiStack, receiverUrl: string): Promise<void> {
  const preview = expectOk(await stack.preview());
  expect(opsByName(preview)).toEqual({ payments: ["create"], welcome: ["create"] });
  expect(suite.emulator.requestCount()).toBe(0);

  const up = expectOk(await stack.up());
  expect(opsByName(up)).toEqual({ payments: ["create"], welcome: ["create"] });
  // Through the plugin, not the dynamic provider: the resources are of the package's types.
  const created = up.steps.filter((step) => step.op === "create" && ["payments", "welcome"].includes(step.name));
  expect(created.map((step) => step.type).sort()).toEqual(["messaging:index:MessageBatch", "messaging:index:WebhookEndpoint"]);
  const id = String(output(up, "endpointId"));
  const endpoint = suite.emulator.endpoints().find((recorded) => recorded.id === id);
  expect(endpoint).toMatchObject({
    url: receiverUrl,
    events: ["payment.succeeded", "identity.verification.created"],
    description: "billing receiver",
  });
  expect(up.outputs?.signingSecret).toEqual({ value: endpoint!.secret, secret: true });
  const exported = JSON.stringify(await stack.exportState());
  expect(exported).not.toContain(endpoint!.secret);
  expect(exported).not.toContain(suite.apiKey);
  expect(suite.emulator.batches()).toHaveLength(1);
  expect(suite.emulator.batches()[0].messages.map((message) => message.tos[0])).toEqual(["+254712345678", "+254712345679"]);
  expect(output(up, "messageCount")).toBe(2);

  const before = suite.emulator.requestCount();
  expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ payments: ["same"], welcome: ["same"] });
  expect(opsByName(expectOk(await stack.refresh()))).toEqual({ payments: ["refresh"], welcome: ["refresh"] });
  expect(suite.emulator.requestCount()).toBe(before);

  const destroyed = expectOk(await stack.destroy());
  expect(opsByName(destroyed)).toEqual({ payments: ["delete"], welcome: ["delete"] });
  expect(suite.emulator.endpoints().some((recorded) => recorded.id === id)).toBe(true);
  expect(suite.emulator.batches()).toHaveLength(1);
}
