/**
 * Two stacks never share an identity. Two stacks of the same project and name, in two backends
 * (two teams; or one stack removed and made again within the service's 24 hours), deploy the same
 * program against one service: each gets an endpoint of its own and sends its own batch. Before,
 * both derived every idempotency key from `<project>/<stack>/<name>`, and the service answered
 * the second with the first's endpoint (id and signing secret) and the first's batch record,
 * sending nothing. On the TypeScript route the stack's identity is a resource of the package
 * (`provider/stack-identity.ts`), on the plugin route the provider's id: each made once and
 * kept in the state, so a killed up still redoes its own calls under its own keys (the kill
 * tests: message-batch.test.ts, kill-anywhere.test.ts). A changed API key is said before any
 * resource is created under it.
 */
import { describeRealEngine, expectOk, messagesOf, opsByName, output, resourcesNamed, useRealEngine } from "../support/real-engine";

const API_KEY = "sk_test_real_identity_3e5d";

describeRealEngine("two stacks of the same project and name", () => {
  const suite = useRealEngine(API_KEY);

  // Then the API key is changed in the second stack. A create left unfinished by a killed up cannot
  // be told from a new one by any provider call, so the change itself is said, before any resource
  // is created under the new key: by the first up (TypeScript: the identity's update), or already
  // by preview (the plugin's DiffConfig).
  test.each([
    ["TypeScript (dynamic resources, an inline program)", "yaml-twin", "up"],
    ["YAML (the plugin)", "examples/yaml", "preview"],
  ] as const)(
    "%s, %s: each stack gets its own endpoint and sends its own batch; a changed key is said by the next %s",
    async (_route, project, operation) => {
      const endpointsBefore = suite.emulator.endpoints().length;
      const batchesBefore = suite.emulator.batches().length;
      const ids: string[] = [];
      let stack: Awaited<ReturnType<typeof suite.stack>> | undefined;
      // Two teams, each with a backend of its own.
      for (let team = 0; team < 2; team++) {
        stack = await suite.stack(project, {
          plugin: project.startsWith("examples/"),
          stackName: "dev",
          config: { receiverUrl: `https://hooks.example.com/${project}` },
        });
        const up = expectOk(await stack.up());
        expect(opsByName(up)).toEqual({ payments: ["create"], welcome: ["create"] });
        ids.push(String(output(up, "endpointId")));
        if (project === "yaml-twin" && team === 0) {
          // The scope's form, pinned: s2, the identity's id, then <project>/<parents' types>/<name>.
          const state = await stack.exportState();
          const [identity] = resourcesNamed(state, "pulumi-messaging-stack-identity");
          const [payments] = resourcesNamed(state, "payments");
          expect((payments.inputs as Record<string, unknown>).idempotencyScope).toBe(`s2/${String(identity.id)}/yaml-twin//payments`);
        }
        // The stack's identity is kept: an unchanged up makes no call, and says nothing of the key.
        const calls = suite.emulator.requestCount();
        expect(messagesOf(expectOk(await stack.up({ expectNoChanges: true })))).not.toMatch(/API key .* changed/);
        expect(suite.emulator.requestCount()).toBe(calls);
      }
      expect(new Set(ids).size).toBe(2);
      expect(suite.emulator.endpoints().length - endpointsBefore).toBe(2);
      expect(suite.emulator.batches().length - batchesBefore).toBe(2);

      const calls = suite.emulator.requestCount();
      await stack!.setConfig("messaging:apiKey", "sk_test_rotated_0000", { secret: true });
      const next = expectOk(operation === "up" ? await stack!.up() : await stack!.preview());
      expect(messagesOf(next)).toMatch(
        /the API key \(messaging:apiKey or MESSAGING_API_KEY\) changed since this stack's last deployment.*If the service refused the old key \(HTTP 401\), it took nothing under it: there is nothing to finish.*finish that run with the old key first/s,
      );
      expect(suite.emulator.requestCount()).toBe(calls);
    },
  );
});
