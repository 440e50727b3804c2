/**
 * A MessageBatch whose messages come from a file asset, under the real `pulumi` CLI, by both
 * routes: TypeScript (`new pulumi.asset.FileAsset`, the dynamic provider) and YAML
 * (`fn::fileAsset`, the plugin). On each: an `up` killed (SIGKILL, every process) once the
 * service took a call, then `cancel` and `up`, sends each message once; an unchanged `up`
 * makes no call; the state holds the file's hash only encrypted, never a message. A file edited after a
 * part-send is refused with nothing sent, and finished once restored. A missing file is an
 * error naming its path, and no call is made.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { recipientsOf } from "../support/emulator";
import { startFirstChunkOnlyService } from "../support/fake-services";
import { fileBatchRoutes, ndjson } from "../support/file-batch-routes";
import {
  describeRealEngine,
  errorsOf,
  expectOk,
  opsByName,
  resourcesNamed,
  useRealEngine,
  upKilledAfterFirstCall,
} from "../support/real-engine";

const API_KEY = "sk_test_real_file_batches_3e9a";

/** `count` NDJSON lines of distinct recipients, from `first`; `edit` changes line `edit` (from 0). */
const lines = (count: number, first = 0, edit?: number): string =>
  ndjson(count, first, (n) => (edit !== undefined && n === first + edit ? `Edited ${n}` : `Reminder ${n}: your appointment is tomorrow`));

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-file-batch-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const ROUTES = fileBatchRoutes(scratch);

describeRealEngine("MessageBatch from a file under pulumi", () => {
  const suite = useRealEngine(API_KEY);

  describe.each(ROUTES)("$name", (route) => {
    test("an up killed once the service took a call, then cancel and up: each message once; an unchanged up makes no call", async () => {
      const from = suite.emulator.batches().length;
      // The stack is made before the file is written: `first` keeps the two routes' recipients apart.
      const first = route.name.startsWith("YAML") ? 100_000 : 0;
      const stack = await route.stack(suite, "messages.ndjson", "killed");
      fs.writeFileSync(path.join(stack.projectDir, "messages.ndjson"), lines(5001, first));

      expect((await upKilledAfterFirstCall(stack, suite.emulator, from)).ok).toBe(false);
      expect(suite.emulator.batches().length - from).toBeGreaterThanOrEqual(1);
      expect(suite.emulator.batches().length - from).toBeLessThan(6);

      await stack.cli(["cancel", "--yes"], { allowFailure: true });
      expectOk(await stack.up());
      const sent = recipientsOf(suite.emulator.batches().slice(from));
      expect(sent).toHaveLength(5001);
      expect(new Set(sent).size).toBe(5001);

      const requests = suite.emulator.requestCount();
      expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
      expect(suite.emulator.requestCount()).toBe(requests);

      // The state holds the file's hash (the engine's, unsalted: a short file is guessed from it) and the messages' digest
      // only encrypted, and never a message.
      const state = JSON.stringify(await stack.exportState());
      const [batch] = resourcesNamed(await stack.exportState(), "reminders");
      const fileHash = createHash("sha256")
        .update(fs.readFileSync(path.join(stack.projectDir, "messages.ndjson")))
        .digest("hex");
      expect(state).not.toContain(fileHash);
      expect(state).not.toMatch(/"hash":"[0-9a-f]{64}"/);
      expect((batch.inputs as Record<string, unknown>).messagesFile).toHaveProperty("ciphertext");
      expect((batch.inputs as Record<string, unknown>).messagesFileRead).toHaveProperty("ciphertext");
      expect(JSON.stringify(await stack.exportState({ showSecrets: true }))).toContain(fileHash);
      expect(state).not.toContain("your appointment");
      expect(state).not.toContain(`+2547${10000000 + first}`);
    });

    test("a file edited after a part-send is refused, sending nothing; restored, the next up sends the rest, nothing twice", async () => {
      const service = await startFirstChunkOnlyService();
      try {
        const first = route.name.startsWith("YAML") ? 300_000 : 200_000;
        const stack = await route.stack(suite, "part.ndjson", "part", suite.serviceConfig(service.url));
        const file = path.join(stack.projectDir, "part.ndjson");
        fs.writeFileSync(file, lines(2001, first));
        const part = await stack.up();
        expect(part.ok).toBe(false);
        const taken = service.recipients().length;
        expect(taken).toBeGreaterThan(0);
        expect(errorsOf(part)).toMatch(new RegExp(`${taken} of 2001 messages were confirmed before sending stopped`));

        service.acceptAll();
        fs.writeFileSync(file, lines(2001, first, 1500));
        const refused = await stack.up();
        expect(refused.ok).toBe(false);
        expect(errorsOf(refused)).toMatch(
          /was only part-sent .* and its messagesFile changed since\. Replacing it would send the confirmed/s,
        );
        expect(errorsOf(refused)).toMatch(/restore the messages/);
        expect(service.recipients()).toHaveLength(taken);

        fs.writeFileSync(file, lines(2001, first));
        expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: ["update"] });
        const sent = service.recipients();
        expect(sent).toHaveLength(2001);
        expect(new Set(sent).size).toBe(2001);
      } finally {
        await service.close();
      }
    });

    test("a missing file is an error naming its path, and no call is made", async () => {
      const stack = await route.stack(suite, "missing.ndjson", "missing");
      const before = suite.emulator.requestCount();
      const result = await stack.up();
      expect(result.ok).toBe(false);
      expect(`${errorsOf(result)}\n${result.text}`).toContain(path.join(stack.projectDir, "missing.ndjson"));
      expect(suite.emulator.requestCount()).toBe(before);
    });
  });
});
