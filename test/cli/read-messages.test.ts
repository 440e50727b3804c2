import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readMessages } from "../../cli/read-messages";
import { MAX_REPORTED_INVALID_MESSAGES } from "../../client/validate";
import { isValidationError, type ValidationError } from "../../errors";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "messaging-read-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `content` to a fresh file named `name` and returns its path. */
function file(name: string, content: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
}

/** The ValidationError readMessages throws for `target` (fails the test if it returns). */
function failure(target: string): ValidationError {
  try {
    readMessages(target);
  } catch (error) {
    if (isValidationError(error)) return error;
    throw error;
  }
  throw new Error(`readMessages(${target}) did not throw`);
}

const A = "+254700000001";
const B = "+254700000002";
const C = "+254700000003";

describe("readMessages: NDJSON", () => {
  it("reads one message a line, skipping blank lines (.ndjson, .jsonl and other extensions)", () => {
    const content = `{"tos":["${A}"],"body":"one"}\n\n   \r\n{"tos":["${B}","${C}"],"template":{"id":"tpl_1","model":{"name":"Ann"}}}\n`;
    const expected = [
      { tos: [A], body: "one" },
      { tos: [B, C], template: { id: "tpl_1", model: { name: "Ann" } } },
    ];
    expect(readMessages(file("a.ndjson", content))).toEqual(expected);
    expect(readMessages(file("a.jsonl", content))).toEqual(expected);
    expect(readMessages(file("a.txt", content))).toEqual(expected);
  });

  it("names the line and field of every invalid message, counting blank lines", () => {
    const error = failure(
      file(
        "bad.ndjson",
        [`{"tos":["${A}"],"body":"ok"}`, "", `{"tos":["0712"],"body":"x"}`, `{"tos":["${A}"]}`, `{"tos":["${A}"],"body":"x","extra":1}`].join("\n"),
      ),
    );
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["line 3: tos[0]", "line 4: (root)", "line 5: extra"]);
    expect(error.fieldErrors["line 3: tos[0]"][0]).toContain("E.164");
    expect(error.fieldErrors["line 4: (root)"][0]).toContain("either body or template");
    expect(error.message).toContain("bad.ndjson");
    expect(error.message).toContain("line 3: tos[0]");
  });

  it("names an invalid JSON line, alongside the other problems, and the file", () => {
    const error = failure(file("syntax.ndjson", `{"tos":["${A}"],"body":"ok"}\n{"tos":["x"],"body":"y"}\n{oops\n`));
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["line 2: tos[0]", "line 3"]);
    expect(error.fieldErrors["line 3"][0]).toMatch(/^not valid JSON/);
    expect(error.message).toContain("syntax.ndjson");
  });

  it("ignores a byte order mark", () => {
    expect(readMessages(file("bom.ndjson", `\ufeff{"tos":["${A}"],"body":"hi"}\n`))).toEqual([{ tos: [A], body: "hi" }]);
  });

  it("lists at most a hundred bad lines and counts the rest", () => {
    const lines = Array.from({ length: MAX_REPORTED_INVALID_MESSAGES + 20 }, () => `{"tos":["bad"],"body":"x"}`);
    const error = failure(file("many.ndjson", lines.join("\n")));
    expect(Object.keys(error.fieldErrors)).toHaveLength(MAX_REPORTED_INVALID_MESSAGES + 1);
    expect(error.fieldErrors["(file)"]).toEqual([`20 more invalid message(s) not listed (${MAX_REPORTED_INVALID_MESSAGES + 20} in all)`]);
  });
});

describe("readMessages: JSON", () => {
  it("reads an array", () => {
    expect(readMessages(file("a.json", JSON.stringify([{ tos: [A], body: "hi" }])))).toEqual([{ tos: [A], body: "hi" }]);
  });

  it("reads { messages: [...] }", () => {
    const content = JSON.stringify({ messages: [{ tos: [A], body: "hi" }, { tos: [B], template: { id: "t", model: {} } }] });
    expect(readMessages(file("wrapped.json", content))).toEqual([
      { tos: [A], body: "hi" },
      { tos: [B], template: { id: "t", model: {} } },
    ]);
  });

  it("names the item (from 0) and field of every invalid message", () => {
    const error = failure(file("bad.json", JSON.stringify([{ tos: [A], body: "ok" }, { tos: [] , body: "x" }, { tos: [A], body: "" }])));
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["item 1: tos", "item 2: body"]);
    expect(error.message).toContain("bad.json");
  });

  it("rejects a document that is not JSON, naming the file", () => {
    const error = failure(file("broken.json", `[{"tos":["${A}"],\n"body":}]`));
    expect(Object.keys(error.fieldErrors)).toEqual(["(file)"]);
    expect(error.fieldErrors["(file)"][0]).toMatch(/^not valid JSON/);
    expect(error.message).toContain("broken.json");
  });

  it.each([["{}"], ['{"messages":{}}'], ['"text"'], ["null"]])("rejects %s: neither an array nor { messages }", (content) => {
    expect(failure(file("shape.json", content)).fieldErrors["(file)"][0]).toContain('{ "messages": [...] }');
  });

  it("rejects an empty array: no messages", () => {
    expect(failure(file("none.json", "[]")).fieldErrors).toEqual({ "(file)": ["no messages found"] });
  });
});

describe("readMessages: CSV", () => {
  it("reads to (split on ';') and body, with quoted fields holding commas, quotes and line breaks", () => {
    const content = [
      "to,body",
      `${A},plain`,
      `"${A}; ${B}","Hello, world"`,
      `${C},"She said ""hi"", twice`,
      `and left"`,
      "",
    ].join("\n");
    expect(readMessages(file("a.csv", content))).toEqual([
      { tos: [A], body: "plain" },
      { tos: [A, B], body: "Hello, world" },
      { tos: [C], body: 'She said "hi", twice\nand left' },
    ]);
  });

  it("reads template rows (template_id and model.<name> columns) beside body rows", () => {
    const content = ["to,body,template_id,model.name,model.code", `${A},hi,,,`, `${B},,tpl_welcome,Ann,"12,34"`].join("\r\n");
    expect(readMessages(file("template.csv", content))).toEqual([
      { tos: [A], body: "hi" },
      { tos: [B], template: { id: "tpl_welcome", model: { name: "Ann", code: "12,34" } } },
    ]);
  });

  it("names the line (where the record starts) and field of every invalid row", () => {
    const content = ["to,body", `${A},"fine"`, `not-a-number,"two`, `lines"`, "", `${A},`].join("\r\n");
    const error = failure(file("bad.csv", content));
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["line 3: tos[0]", "line 6: (root)"]);
    expect(error.message).toContain("bad.csv");
  });

  it("ignores a byte order mark (Excel's CSV UTF-8)", () => {
    expect(readMessages(file("bom.csv", `\ufeffto,body\n${A},hi\n`))).toEqual([{ tos: [A], body: "hi" }]);
  });

  it("reports a missing 'to' column once", () => {
    const error = failure(file("noto.csv", `phone,body\n${A},hi\n${B},ho\n`));
    expect(Object.keys(error.fieldErrors)).toEqual(["(file)"]);
    expect(error.fieldErrors["(file)"][0]).toContain("no 'to' column");
  });

  it("reports malformed CSV with its line, naming the file", () => {
    const error = failure(file("malformed.csv", `to,body\n${A},hi\n${B},"unclosed\n`));
    expect(error.fieldErrors["(file)"][0]).toMatch(/^not valid CSV: .*line 3/);
    expect(error.message).toContain("malformed.csv");
  });

  it("rejects a header without rows: no messages", () => {
    expect(failure(file("header.csv", "to,body\n")).fieldErrors["(file)"][0]).toContain("no messages found");
  });
});

describe("readMessages: the file as a whole", () => {
  it.each([["empty.ndjson"], ["empty.json"], ["empty.csv"]])("rejects an empty %s clearly", (name) => {
    const error = failure(file(name, " \n\n"));
    expect(error.fieldErrors).toEqual({ "(file)": ["the file is empty; expected messages as NDJSON, JSON or CSV"] });
    expect(error.message).toContain(name);
  });

  it("rejects a file that does not exist, naming it", () => {
    const error = failure(path.join(dir, "missing.ndjson"));
    expect(error.fieldErrors["(file)"][0]).toMatch(/^cannot be read: ENOENT/);
    expect(error.message).toContain("missing.ndjson");
  });
});
