import { startEmulator, type Emulator } from "../../emulator";
import { call, endpointForm, message, type CallOptions, emulatorForEachTest } from "../support/emulator";

const emulator = emulatorForEachTest();

/** The status, or "socket" when the connection was dropped without an answer. */
async function outcome(target: Emulator, path: string, options: CallOptions): Promise<number | "socket"> {
  try {
    return (await call(target, path, options)).status;
  } catch {
    return "socket";
  }
}

async function faults(target: Emulator, body: unknown) {
  return call(target, "/_emulator/faults", { json: body });
}

describe("POST /_emulator/faults", () => {
  it("answers with the settings in force, picking a seed when none is given", async () => {
    const withSeed = await faults(emulator, { failureRate: 0.3, seed: 42 });
    expect(withSeed.status).toBe(200);
    expect(withSeed.json).toEqual({
      failureRate: 0.3,
      seed: 42,
      kinds: ["internal_error", "service_unavailable", "rate_limited", "reset_before_processing", "drop_after_processing"],
    });
    const noSeed = await faults(emulator, { failureRate: 0.5 });
    expect(Number.isInteger(noSeed.json.seed)).toBe(true);
    expect((await call(emulator, "/_emulator/faults")).json).toEqual({ ...noSeed.json, log: [] });
  });

  it.each([
    [{ failureRate: 1.5 }, "failureRate"],
    [{ failureRate: -0.1 }, "failureRate"],
    [{ failureRate: "high" }, "failureRate"],
    [{}, "failureRate"],
    [{ failureRate: 0.5, seed: 1.5 }, "seed"],
    [{ failureRate: 0.5, kinds: ["meteor"] }, "kinds[0]"],
    [{ failureRate: 0.5, rate: 1 }, "rate"],
  ])("rejects %p naming %s", async (body, field) => {
    const result = await faults(emulator, body);
    expect(result.status).toBe(400);
    expect(result.json.title).toBe("validation_failed");
    expect(Object.keys(result.json.errors)).toEqual([field]);
  });

  it("a script: exactly these answers for the next API requests, in order, then none; GET shows what each met", async () => {
    const settings = await faults(emulator, { script: ["service_unavailable", "none", "rate_limited"] });
    expect(settings.json).toEqual(expect.objectContaining({ failureRate: 0, script: ["service_unavailable", "none", "rate_limited"] }));
    const form = endpointForm();
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push(await outcome(emulator, "/v1/webhooks/endpoints", { form, headers: { "idempotency-key": `script-${i}` } }));
    expect(statuses).toEqual([503, 200, 429, 200, 200]);
    const state = (await call(emulator, "/_emulator/faults")).json;
    expect(state.script).toEqual([]);
    expect(state.log).toEqual(["service_unavailable", "none", "rate_limited", "none", "none"]);
    expect(emulator.faultLog()).toEqual(state.log);
  });

  it.each([
    [{ script: [] }, "script"],
    [{ script: ["none", "meteor"] }, "script[1]"],
    [{ script: ["none"], failureRate: 1 }, "failureRate"],
  ])("rejects the script %p naming %s", async (body, field) => {
    const result = await faults(emulator, body);
    expect(result.status).toBe(400);
    expect(Object.keys(result.json.errors)).toEqual([field]);
  });

  it("is validated by setFaults too", () => {
    expect(() => emulator.setFaults({ failureRate: 2 })).toThrow();
    expect(emulator.setFaults({ failureRate: 0.1, seed: 7 })).toMatchObject({ failureRate: 0.1, seed: 7 });
  });
});

describe("injected faults", () => {
  const form = endpointForm();

  it("fails every /v1 request at rate 1, with the mix of faults", async () => {
    await faults(emulator, { failureRate: 1, seed: 42 });
    const outcomes: Array<number | "socket"> = [];
    for (let i = 0; i < 40; i++) outcomes.push(await outcome(emulator, "/v1/webhooks/endpoints", { form }));
    expect(outcomes).not.toContain(200);
    expect(new Set(outcomes)).toEqual(new Set([500, 503, 429, "socket"]));
    expect(emulator.requestCount()).toBe(40);
  });

  it("repeats the same faults for the same seed", async () => {
    const other = await startEmulator();
    try {
      const runs: Array<Array<number | "socket">> = [];
      for (const target of [emulator, other]) {
        await faults(target, { failureRate: 0.5, seed: 1234 });
        const outcomes: Array<number | "socket"> = [];
        for (let i = 0; i < 25; i++) outcomes.push(await outcome(target, "/v1/webhooks/endpoints", { form }));
        runs.push(outcomes);
      }
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[0]).toContain(200);
      expect(runs[0].some((o) => o !== 200)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("answers 429 with Retry-After: 1 and a problem body", async () => {
    emulator.setFaults({ failureRate: 1, seed: 1, kinds: ["rate_limited"] });
    const result = await call(emulator, "/v1/message_batches", { json: { stream: "transactional", messages: [message()] } });
    expect(result.status).toBe(429);
    expect(result.headers["retry-after"]).toBe("1");
    expect(result.headers["x-emulator-fault"]).toBe("rate_limited");
    expect(result.json).toMatchObject({ status: 429, title: "rate_limited" });
    expect(emulator.batches()).toEqual([]);
  });

  it("answers 500 and 503 problems without processing", async () => {
    emulator.setFaults({ failureRate: 1, kinds: ["internal_error"] });
    expect((await call(emulator, "/v1/webhooks/endpoints", { form })).json).toMatchObject({ status: 500, title: "internal_error" });
    emulator.setFaults({ failureRate: 1, kinds: ["service_unavailable"] });
    expect((await call(emulator, "/v1/webhooks/endpoints", { form })).json).toMatchObject({ status: 503, title: "service_unavailable" });
    expect(emulator.endpoints()).toEqual([]);
  });

  it("resets the connection before processing: nothing is recorded", async () => {
    emulator.setFaults({ failureRate: 1, kinds: ["reset_before_processing"] });
    await expect(call(emulator, "/v1/webhooks/endpoints", { form })).rejects.toThrow();
    expect(emulator.endpoints()).toEqual([]);
  });

  it("processes, then drops: the object is recorded and a retry with the key replays it", async () => {
    emulator.setFaults({ failureRate: 1, kinds: ["drop_after_processing"] });
    const headers = { "idempotency-key": "drop-1" };
    await expect(call(emulator, "/v1/webhooks/endpoints", { form, headers })).rejects.toThrow();
    const recorded = emulator.endpoints();
    expect(recorded).toHaveLength(1);

    await faults(emulator, { failureRate: 0 });
    const retry = await call(emulator, "/v1/webhooks/endpoints", { form, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.json).toEqual(recorded[0]);
    expect(emulator.endpoints()).toHaveLength(1);
  });

  it("processes, then drops a batch too", async () => {
    emulator.setFaults({ failureRate: 1, kinds: ["drop_after_processing"] });
    await expect(call(emulator, "/v1/message_batches", { json: { stream: "transactional", messages: [message()] } })).rejects.toThrow();
    expect(emulator.batches()).toHaveLength(1);
  });

  it("leaves the /_emulator routes alone", async () => {
    await faults(emulator, { failureRate: 1, seed: 5 });
    for (let i = 0; i < 10; i++) expect((await call(emulator, "/_emulator/endpoints")).status).toBe(200);
  });

  it("stops with failureRate 0", async () => {
    await faults(emulator, { failureRate: 1, seed: 9 });
    expect(await outcome(emulator, "/v1/webhooks/endpoints", { form })).not.toBe(200);
    expect((await faults(emulator, { failureRate: 0 })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect(await outcome(emulator, "/v1/webhooks/endpoints", { form })).toBe(200);
  });
});
