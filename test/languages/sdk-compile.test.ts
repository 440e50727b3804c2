/**
 * Each generated SDK compiles and type-checks as its users would use it:
 * - nodejs: `tsc --strict` with the SDK's tsconfig, against the @pulumi/pulumi it requires;
 * - Python: pip-installed into a venv with `pulumi` from PyPI (the tier's set-up), imported, and
 *   examples/python type-checked by pyright against it, 0 errors;
 * - Go: `go vet` and `go build` of examples/go and of the SDK's packages, in the example's module.
 * Each check is also shown to fail on a program or SDK that is wrong.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";
import { SDK_MODULE } from "./go-example";
import { compileNodejsSdk } from "./nodejs-sdk";
import { describeLanguage, pythonExecutable } from "./toolchains";
import { goDiagnostics } from "../support/go-output";
import { PLUGIN_DOWNLOAD_URL } from "../../plugin/schema";

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-sdk-compile-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describeLanguage("nodejs")("sdk/nodejs", () => {
  test("compiles with tsc --strict; an SDK with an implicit any (an error only when strict) does not", () => {
    const compiled = compileNodejsSdk(scratch);
    expect(compiled.diagnostics).toBe("");
    expect(compiled.ok).toBe(true);
    expect(fs.existsSync(path.join(compiled.packageDir, "webhookEndpoint.d.ts"))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(compiled.packageDir, "package.json"), "utf8"))).toMatchObject({
      name: "@pulumi-messaging/messaging",
      version: VERSION,
      pulumi: { resource: true, name: "messaging", version: VERSION, server: PLUGIN_DOWNLOAD_URL },
    });

    const broken = fs.mkdtempSync(path.join(scratch, "broken-"));
    fs.cpSync(path.join(REPO_ROOT, "sdk", "nodejs"), broken, { recursive: true });
    const file = path.join(broken, "webhookEndpoint.ts");
    fs.appendFileSync(file, "\nexport function untyped(value) {\n    return value;\n}\n");
    expect(compileNodejsSdk(scratch, broken).diagnostics).toMatch(
      /webhookEndpoint\.ts.*error TS7006: Parameter 'value' implicitly has an 'any' type/,
    );
  });
});

describeLanguage("python")("sdk/python", () => {
  const pyright = (file: string) => {
    const result = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "node_modules", "pyright", "index.js"), "--outputjson", "--pythonpath", pythonExecutable(), file],
      { encoding: "utf8" },
    );
    return JSON.parse(result.stdout) as {
      summary: { errorCount: number };
      generalDiagnostics: Array<{ message: string; range: { start: { line: number } } }>;
    };
  };

  test("installed into a venv with pulumi from PyPI: imported, and carrying the plugin's version", () => {
    const said = execFileSync(
      pythonExecutable(),
      [
        "-c",
        "import json, importlib.resources as r, pulumi_messaging as m; " +
          "print(json.dumps([m.WebhookEndpoint.__name__, m.MessageBatch.__name__, json.loads(r.files(m).joinpath('pulumi-plugin.json').read_text())]))",
      ],
      { encoding: "utf8" },
    );
    expect(JSON.parse(said)).toEqual([
      "WebhookEndpoint",
      "MessageBatch",
      { resource: true, name: "messaging", version: VERSION, server: PLUGIN_DOWNLOAD_URL },
    ]);
  });

  test("examples/python type-checks with pyright against it: 0 errors; a wrong argument is an error", () => {
    const example = path.join(REPO_ROOT, "examples", "python", "__main__.py");
    const checked = pyright(example);
    expect(checked.generalDiagnostics.map((diagnostic) => diagnostic.message)).toEqual([]);
    expect(checked.summary.errorCount).toBe(0);

    const wrong = path.join(fs.mkdtempSync(path.join(scratch, "python-")), "__main__.py");
    fs.writeFileSync(wrong, fs.readFileSync(example, "utf8").replace("url=receiver_url,", "webhook_url=receiver_url,"));
    const refused = pyright(wrong);
    expect(refused.summary.errorCount).toBeGreaterThan(0);
    // The keyword is not one of WebhookEndpoint's: no overload of its constructor takes it.
    expect(refused.generalDiagnostics.map((diagnostic) => diagnostic.message).join("\n")).toMatch(/No overloads for "__init__"/);
  });

  test("pyright refuses a format that is not one of WebhookEndpointFormat's values, and WebhookEndpointArgs without url", () => {
    const program = path.join(fs.mkdtempSync(path.join(scratch, "python-")), "__main__.py");
    fs.writeFileSync(
      program,
      [
        "import pulumi_messaging as messaging",
        'messaging.WebhookEndpoint("a", url="https://hooks.example.com/a", events=["payment.succeeded"], format="json")',
        'messaging.WebhookEndpointArgs(events=["payment.succeeded"])',
        'messaging.WebhookEndpointArgs(url="https://hooks.example.com/b", events=["payment.succeeded"], format=messaging.WebhookEndpointFormat.CLOUD_EVENTS)',
        "",
      ].join("\n"),
    );
    const checked = pyright(program);
    const lines = checked.generalDiagnostics.map((diagnostic) => diagnostic.range.start.line + 1);
    expect([...new Set(lines)].sort()).toEqual([2, 3]);
    const messages = checked.generalDiagnostics.map((diagnostic) => diagnostic.message).join("\n");
    expect(messages).toMatch(/"url"/);
  });

  test("the SDK README's Python program type-checks with pyright against it: 0 errors", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "sdk", "python", "README.md"), "utf8");
    const snippet = /```python\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toContain("messaging.WebhookEndpoint(");
    const program = path.join(fs.mkdtempSync(path.join(scratch, "python-readme-")), "__main__.py");
    fs.writeFileSync(program, snippet!);
    const checked = pyright(program);
    expect(checked.generalDiagnostics.map((diagnostic) => diagnostic.message)).toEqual([]);
    expect(checked.summary.errorCount).toBe(0);
  });

  test("help() on a resource class says what it does: replacement, retention, and which outputs are secrets", () => {
    const doc = execFileSync(pythonExecutable(), ["-c", "import pulumi_messaging as m; print(m.WebhookEndpoint.__doc__)"], {
      encoding: "utf8",
    });
    expect(doc).toMatch(/any change replaces the endpoint/);
    expect(doc).toMatch(/leaves it active in the service/);
    expect(doc).toMatch(/Secret outputs .*`secret`/);
  });
});

describeLanguage("go")("sdk/go", () => {
  const go = (args: string[], cwd: string) =>
    spawnSync("go", args, { cwd, encoding: "utf8", env: { ...process.env, GOFLAGS: "-mod=mod" } });

  test("go vet and go build of examples/go and of the SDK's packages; a wrong field, or a string for format, fails go vet", () => {
    const example = path.join(REPO_ROOT, "examples", "go");
    const vet = go(["vet", "./...", `${SDK_MODULE}/...`], example);
    expect(goDiagnostics(vet.stderr)).toBe("");
    expect(vet.status).toBe(0);
    const built = go(["build", "-o", `${scratch}${path.sep}`, ".", `${SDK_MODULE}/...`], example);
    expect(goDiagnostics(built.stderr)).toBe("");
    expect(built.status).toBe(0);

    const wrong = fs.mkdtempSync(path.join(scratch, "go-"));
    fs.cpSync(example, wrong, { recursive: true });
    go(["mod", "edit", `-replace=${SDK_MODULE}=${path.join(REPO_ROOT, "sdk", "go")}`], wrong);
    const main = path.join(wrong, "main.go");
    const source = fs.readFileSync(main, "utf8");
    fs.writeFileSync(main, source.replace("Url:         pulumi", "WebhookUrl:  pulumi"));
    const refused = go(["vet", "."], wrong);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/WebhookUrl/);

    // format takes the SDK's enum: a plain string does not compile.
    fs.writeFileSync(main, source.replace("messaging.WebhookEndpointFormatBasic", 'pulumi.String("json")'));
    const untyped = go(["vet", "."], wrong);
    expect(untyped.status).not.toBe(0);
    expect(untyped.stderr).toMatch(/pulumi\.String\("json"\).*WebhookEndpointFormatPtrInput/);
  });
});
