/**
 * docs/receivers.md's Python and Go receivers ("Receivers in Python and Go"), run as written with
 * their standard libraries against a delivery the emulator signed: the delivery as it came,
 * its body with one byte changed, and the same delivery checked 301 s later.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { REPO_ROOT } from "../support/environment";
import { call, endpointForm, startReceiver } from "../support/emulator";

/** docs/receivers.md's fenced block in `language` under the "Receivers in Python and Go" heading. */
function readmeBlock(language: "python" | "go"): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "docs", "receivers.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Receivers in Python and Go"));
  const match = new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "m").exec(section);
  if (!match) throw new Error(`docs/receivers.md: no ${language} block under "Receivers in Python and Go"`);
  return match[1];
}

const PYTHON_HARNESS = `
import sys
body = open(sys.argv[1], "rb").read()
try:
    verify_signature(body, sys.argv[2], sys.argv[3], now=float(sys.argv[4]))
    print("ok")
except ValueError as error:
    print(error)
`;

const GO_HARNESS = `
func main() {
	body, _ := os.ReadFile(os.Args[1])
	now, _ := strconv.ParseInt(os.Args[4], 10, 64)
	if err := VerifySignature(body, os.Args[2], os.Args[3], 300*time.Second, time.Unix(now, 0)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ok")
}
`;

describe("docs/receivers.md's Python and Go receivers", () => {
  let emulator: Emulator;
  let scratch: string;
  let delivery: { body: string; header: string; secret: string; t: number };
  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-receivers-"));
    emulator = await startEmulator({ deliveryRetrySchedule: [] });
    const receiver = await startReceiver(204);
    try {
      const created = await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm({ url: `${receiver.url}/hooks` }) });
      const secret = (created.json as { secret: string }).secret;
      await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded", data: { amount: 1200, note: "café ✓" } } });
      await emulator.deliveriesSettled();
      const [received] = receiver.received;
      const header = String(received.headers["x-service-signature"]);
      delivery = { body: received.body, header, secret, t: Number(/t=(\d+)/.exec(header)?.[1]) };
    } finally {
      await receiver.close();
    }
  });
  afterAll(async () => {
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Each verifier's verdicts on the delivery, tampered with, and late. */
  function verdicts(run: (bodyFile: string, header: string, secret: string, now: number) => string) {
    const file = (name: string, text: string) => {
      const at = path.join(scratch, name);
      fs.writeFileSync(at, text);
      return at;
    };
    const { body, header, secret, t } = delivery;
    return {
      valid: run(file("body.json", body), header, secret, t),
      tampered: run(file("tampered.json", body.replace("1200", "9200")), header, secret, t),
      stale: run(file("body.json", body), header, secret, t + 301),
    };
  }

  const expected = {
    valid: "ok",
    tampered: "no signature matches: wrong secret, or the body was changed",
    stale: "timestamp outside the tolerance: a replay, or a clock that is off",
  };

  test("Python", () => {
    const script = path.join(scratch, "verify.py");
    fs.writeFileSync(script, `${readmeBlock("python")}\n${PYTHON_HARNESS}`);
    const run = (bodyFile: string, header: string, secret: string, now: number) =>
      execFileSync("python3", [script, bodyFile, header, secret, String(now)], { encoding: "utf8" }).trim();
    expect(verdicts(run)).toEqual(expected);
  });

  test("Go", () => {
    const dir = path.join(scratch, "go");
    fs.mkdirSync(dir, { recursive: true });
    // The docs' block is a package of the user's; here it is the main package of a small program.
    const code = readmeBlock("go")
      .replace(/^package \w+/m, "package main")
      .replace("import (\n", 'import (\n\t"fmt"\n\t"os"\n');
    fs.writeFileSync(path.join(dir, "main.go"), `${code}\n${GO_HARNESS}`);
    fs.writeFileSync(path.join(dir, "go.mod"), "module receiver\n\ngo 1.22\n");
    execFileSync("go", ["build", "-o", "verify", "."], { cwd: dir, env: { ...process.env, GOFLAGS: "-mod=mod" } });
    const run = (bodyFile: string, header: string, secret: string, now: number) =>
      execFileSync(path.join(dir, "verify"), [bodyFile, header, secret, String(now)], { encoding: "utf8" }).trim();
    expect(verdicts(run)).toEqual(expected);
  });
});
