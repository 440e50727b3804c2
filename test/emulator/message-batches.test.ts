import { Problem } from "../../schemas";
import { call, message, withEmulatorClient, emulatorForEachTest } from "../support/emulator";

const emulator = emulatorForEachTest();

describe("POST /v1/message_batches: success", () => {
  it("answers 200 with the batch result and records the batch", async () => {
    const messages = [
      { tos: ["+254712345678", "+254712345679"], body: "Your order shipped" },
      { tos: ["+254700000001"], template: { id: "tmpl_reminder", model: { name: "Wanjiru", day: 3 } } },
    ];
    const result = await call(emulator, "/v1/message_batches", { json: { stream: "transactional", messages } });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({
      id: expect.stringMatching(/^msba_[0-9a-f]{24}$/),
      stream: "transactional",
      created: expect.any(String),
      messageCount: 2,
    });
    const recorded = { id: result.json.id, stream: "transactional", created: result.json.created, messages };
    expect(emulator.batches()).toEqual([recorded]);
    expect((await withEmulatorClient(emulator, (client) => client.listBatches())).batches).toEqual([recorded]);
  });

  it("accepts exactly 1,000 messages", async () => {
    const messages = Array.from({ length: 1000 }, (_, i) => message(i));
    const result = await call(emulator, "/v1/message_batches", { json: { stream: "transactional", messages } });
    expect(result.status).toBe(200);
    expect(result.json.messageCount).toBe(1000);
    expect(emulator.batches()[0].messages).toHaveLength(1000);
  });

  it("accepts any non-empty stream name", async () => {
    const result = await call(emulator, "/v1/message_batches", { json: { stream: "marketing", messages: [message()] } });
    expect(result.status).toBe(200);
  });
});

describe("POST /v1/message_batches: rejections", () => {
  async function rejected(json: unknown, title = "validation_failed") {
    const result = await call(emulator, "/v1/message_batches", { json });
    expect(result.status).toBe(400);
    const problem = Problem.parse(result.json);
    expect(problem.title).toBe(title);
    expect(emulator.batches()).toEqual([]);
    return problem;
  }

  it.each([
    ["in a message", '{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"a","body":"b"}]}', "messages[0].body"],
    ["at the top", '{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"a"}],"stream":"marketing"}', "stream"],
    ["the messages themselves", '{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"a"}],"messages":[]}', "messages"],
  ])("refuses a repeated key %s, in a body otherwise written as JSON.stringify writes it", async (_, body, field) => {
    const result = await call(emulator, "/v1/message_batches", { body, headers: { "content-type": "application/json" } });
    expect(result.status).toBe(400);
    const problem = Problem.parse(result.json);
    expect(problem.title).toBe("validation_failed");
    expect(problem.errors).toEqual({ [field]: ["this key appears more than once in the object"] });
    expect(emulator.batches()).toEqual([]);
  });

  it("names messages[1].tos[0] for a bad phone number", async () => {
    const problem = await rejected({
      stream: "transactional",
      messages: [message(0), { tos: ["0712345678"], body: "hi" }],
    });
    expect(Object.keys(problem.errors ?? {})).toEqual(["messages[1].tos[0]"]);
    expect(problem.detail).toContain("messages[1].tos[0]");
  });

  it("rejects a message with both body and template", async () => {
    const problem = await rejected({
      stream: "transactional",
      messages: [{ tos: ["+254712345678"], body: "hi", template: { id: "t", model: {} } }],
    });
    expect(problem.errors?.["messages[0].template"]?.[0]).toMatch(/either body or template, not both/);
  });

  it("rejects a message with neither body nor template", async () => {
    const problem = await rejected({ stream: "transactional", messages: [message(0), { tos: ["+254712345678"] }] });
    expect(problem.errors?.["messages[1]"]?.[0]).toMatch(/needs either body or template/);
  });

  it("rejects 1,001 messages as batch_too_large, naming messages", async () => {
    const messages = Array.from({ length: 1001 }, (_, i) => message(i));
    const problem = await rejected({ stream: "transactional", messages }, "batch_too_large");
    expect(Object.keys(problem.errors ?? {})).toEqual(["messages"]);
    expect(problem.detail).toContain("1001");
  });

  it("names missing stream and messages, and an empty batch", async () => {
    const missing = await rejected({});
    expect(Object.keys(missing.errors ?? {}).sort()).toEqual(["messages", "stream"]);
    const empty = await rejected({ stream: "", messages: [] });
    expect(Object.keys(empty.errors ?? {}).sort()).toEqual(["messages", "stream"]);
  });

  it("names unknown fields at their path", async () => {
    const problem = await rejected({ stream: "transactional", messages: [{ ...message(), bdy: "x" }], extra: 1 });
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual(["extra", "messages[0].bdy"]);
  });

  it("rejects a template without a model", async () => {
    const problem = await rejected({ stream: "transactional", messages: [{ tos: ["+254712345678"], template: { id: "t" } }] });
    expect(Object.keys(problem.errors ?? {})).toEqual(["messages[0].template.model"]);
  });

  it("rejects a JSON body that is not an object", async () => {
    const problem = await rejected([message()]);
    expect(Object.keys(problem.errors ?? {})).toEqual(["(root)"]);
  });

  it("answers 400 malformed_json for broken JSON", async () => {
    const result = await call(emulator, "/v1/message_batches", {
      body: '{"stream": "transactional", "messages": [',
      headers: { "content-type": "application/json" },
    });
    expect(result.status).toBe(400);
    expect(Problem.parse(result.json).title).toBe("malformed_json");
  });

  it("answers 400 malformed_json for an empty body", async () => {
    const result = await call(emulator, "/v1/message_batches", { body: "", headers: { "content-type": "application/json" } });
    expect(result.status).toBe(400);
    expect(result.json.title).toBe("malformed_json");
  });

  it("answers 415 for a form body or a missing content type", async () => {
    const form = await call(emulator, "/v1/message_batches", { form: "stream=transactional" });
    expect(form.status).toBe(415);
    expect(form.json.title).toBe("unsupported_media_type");
    const none = await call(emulator, "/v1/message_batches", { body: JSON.stringify({ stream: "transactional", messages: [message()] }) });
    expect(none.status).toBe(415);
    expect(emulator.batches()).toEqual([]);
  });
});
