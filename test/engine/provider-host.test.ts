/**
 * The provider as Pulumi's real dynamic-provider host runs it, called over gRPC as the engine
 * calls it, for what the CLI cannot be made to do at one exact call: the engine's view of a
 * half-finished create, and that every later call on that state works. The serialized provider
 * and inputs come from a real `pulumi up` of the fixture.
 */
import { ProviderHost, ResourceInitError, startProviderHost } from "../support/provider-host";
import { startFirstChunkOnlyService, startHalfMadeEndpointService } from "../support/fake-services";
import { withoutMessagingEnv } from "../support/environment";
import { describeRealEngine, expectOk, resourcesNamed, useRealEngine } from "../support/real-engine";

const API_KEY = "sk_test_host_0b7e";

describeRealEngine("the dynamic-provider host", () => {
  const suite = useRealEngine(API_KEY);

  /** A resource's URN and the inputs the program registered (its serialized provider included), from a real `up`. */
  async function registered(fixture: string, name: string, config: Record<string, string>) {
    const stack = await suite.stack(fixture, { config });
    expectOk(await stack.up());
    const [resource] = resourcesNamed(await stack.exportState({ showSecrets: true }), name);
    return { project: stack.projectDir, urn: String(resource.urn), inputs: resource.inputs as Record<string, unknown> };
  }

  async function withHost<T>(project: string, baseUrl: string, use: (host: ProviderHost) => Promise<T>): Promise<T> {
    const host = await startProviderHost(project, withoutMessagingEnv());
    try {
      await host.configure({ "messaging:apiKey": API_KEY, "messaging:baseUrl": baseUrl }, ["messaging:apiKey"]);
      return await use(host);
    } finally {
      await host.close();
    }
  }

  test("WebhookEndpoint: a create whose answer lacks the secret is an init failure with reasons and __provider; read, diff and delete of that state work", async () => {
    const { project, urn, inputs } = await registered("endpoint-stack", "main", {
      "endpoint-stack:endpoint": JSON.stringify({ url: "https://hooks.example.com/host-test", events: ["payment.succeeded"] }),
    });
    const service = await startHalfMadeEndpointService();
    try {
      await withHost(project, service.url, async (host) => {
        const checked = await host.check(urn, {}, inputs);
        const failure = await host.create(urn, checked.inputs).catch((error) => error);
        expect(failure).toBeInstanceOf(ResourceInitError);
        expect(failure.id).toBe("we_half_made");
        expect(failure.reasons).toEqual([expect.stringMatching(/we_half_made was created.*secret is unknown/)]);
        expect(failure.properties.__provider).toBe(inputs.__provider);

        const read = await host.read(urn, failure.id, failure.properties, checked.inputs);
        expect(read.properties).toMatchObject({ secret: null, __provider: inputs.__provider });
        // A change without replacement: the engine calls Update, which asks the service again under the create's key.
        const diff = await host.diff(urn, failure.id, failure.properties, checked.inputs, checked.inputs);
        expect(diff).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
        const again = await host.update(urn, failure.id, failure.properties, checked.inputs, checked.inputs).catch((error) => error);
        expect(again).toBeInstanceOf(ResourceInitError);
        expect(again.id).toBe("we_half_made");
        expect(again.reasons).toEqual([expect.stringMatching(/still could not be read.*adopt: \{ id: "we_half_made"/)]);
        // The host adds no __provider to an update's init failure either: the provider put the new one there.
        expect(again.properties).toMatchObject({
          secret: null,
          createIdempotencyKey: failure.properties.createIdempotencyKey,
          __provider: inputs.__provider,
        });
        await expect(host.delete(urn, failure.id, failure.properties)).resolves.toBeUndefined();
      });
    } finally {
      await service.close();
    }
  });

  test("MessageBatch: a part-sent batch is an init failure with reasons and __provider; diff reports a change and update sends the rest", async () => {
    const { project, urn, inputs } = await registered("batch-stack", "reminders", { "batch-stack:count": "1001" });
    const service = await startFirstChunkOnlyService();
    try {
      await withHost(project, service.url, async (host) => {
        const checked = await host.check(urn, {}, inputs);
        const failure = await host.create(urn, checked.inputs).catch((error) => error);
        expect(failure).toBeInstanceOf(ResourceInitError);
        expect(failure.reasons).toEqual([expect.stringMatching(/\d+ of 1001 messages were confirmed/)]);
        expect(failure.properties).toMatchObject({ sentAt: null, __provider: inputs.__provider });

        const read = await host.read(urn, failure.id, failure.properties, checked.inputs);
        expect(read.properties.__provider).toBe(inputs.__provider);
        // No init error needed: the diff alone makes the engine call update.
        expect(await host.diff(urn, failure.id, read.properties, checked.inputs, checked.inputs)).toEqual({
          changes: "some",
          replaces: [],
          deleteBeforeReplace: false,
        });

        service.acceptAll();
        const updated = await host.update(urn, failure.id, read.properties, checked.inputs, checked.inputs);
        expect(updated.properties).toMatchObject({
          sentAt: expect.any(String),
          batchIds: ["msba_fake_0", "msba_fake_1"],
          __provider: inputs.__provider,
        });
        expect(new Set(service.recipients()).size).toBe(1001);
        expect(service.recipients()).toHaveLength(1001);
      });
    } finally {
      await service.close();
    }
  });
});
