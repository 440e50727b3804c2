/**
 * A third resource kind, made as docs/architecture.md's recipe says (its schemas and runtime
 * through `defineKind`, its line added to `provider/kinds/index.ts`, whose exports the
 * registry passes to `kindsByName`), reaches the
 * dynamic provider's shape, the TypeScript class's props and the plugin's schema and
 * dispatch by the same path as the real kinds, with nothing else written for it.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { SERVED_KINDS, tokenOf } from "../../../plugin/kinds";
import { MessagingProvider } from "../../../plugin/provider";
import { isSecret } from "../../../plugin/property-values";
import { packageSchema } from "../../../plugin/schema";
import { defineKind, kindsByName } from "../../../provider/kinds/define-kind";
import { KINDS } from "../../../provider/kinds/registry";
import { runtimes } from "../../../provider/runtime";
import { resourceProps, withSecretOutputs } from "../../../provider/resource-options";

const WidgetInputs = z.object({
  label: z.string().min(1).meta({ description: "What the widget shows.", replaceOnChanges: true }),
  token: z.string().optional().meta({ secret: true, description: "Lets the widget in." }),
});
const WidgetState = z.object({
  label: z.string(),
  serial: z.number().meta({ description: "Serial number the service gave." }),
  key: z.string().nullable().meta({ secret: true, description: "The widget's key, or null." }),
});

// Only `create` written: every other method is the default.
const widget = defineKind({
  name: "Widget",
  description: "A widget of a service that does not exist.",
  inputs: WidgetInputs,
  state: WidgetState,
  methods: {
    create: async (_context, inputs) => ({ id: "widget-1", outs: { label: inputs.label, serial: 7, key: `key-of-${inputs.token}` } }),
  },
});
// The registry's kinds with the third one added, as its line in provider/kinds/index.ts would.
const kinds = Object.values(kindsByName(...Object.values(KINDS), widget));
const URN = "urn:pulumi:dev::shop::messaging:index:Widget::front";

describe("a kind defined once", () => {
  test("its secrets, output-only keys and descriptions come from its schemas", () => {
    expect(widget.secretInputs).toEqual(["token"]);
    expect(widget.secretOutputs).toEqual(["key"]);
    expect(widget.outputOnlyKeys).toEqual(["serial", "key", "serviceUrl"]);
    // An input's own description, else its state field's.
    expect(widget.describe("token")).toBe("Lets the widget in.");
    expect(widget.describe("serial")).toBe("Serial number the service gave.");
    expect(widget.describe("nothing")).toBeUndefined();
  });

  test("two kinds cannot share a name", () => {
    expect(() => kindsByName(widget, widget)).toThrow(/Two resource kinds are named Widget/);
  });

  test("the dynamic provider's runtimes are the registry's kinds, config first", async () => {
    expect(Object.keys(runtimes).sort()).toEqual(Object.keys(KINDS).sort());
    expect(runtimes.WebhookEndpoint).toBe(KINDS.WebhookEndpoint.runtime);
    await expect(widget.runtime.check(undefined, {}, { label: "" })).resolves.toMatchObject({
      failures: [expect.objectContaining({ property: "label" })],
    });
    await expect(widget.runtime.create(undefined, { label: "a", token: "t" })).resolves.toEqual({
      id: "widget-1",
      outs: { label: "a", serial: 7, key: "key-of-t", serviceUrl: null },
    });
  });

  test("the defaults: check by the schema, diff replacing on the marked inputs, read keeping, update refused, unreadable state refused", async () => {
    const state = { label: "a", serial: 7, key: "k" };
    await expect(widget.runtime.diff(undefined, "widget-1", state, { label: "a", token: "other" })).resolves.toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    await expect(widget.runtime.diff(undefined, "widget-1", state, { label: "b" })).resolves.toMatchObject({ replaces: ["label"] });
    await expect(widget.runtime.read(undefined, "widget-1", state)).resolves.toEqual({ id: "widget-1", props: state });
    await expect(widget.runtime.read(undefined, "widget-1", {})).rejects.toThrow("Cannot import widget widget-1");
    await expect(widget.runtime.update(undefined, "widget-1", state, { label: "a" })).rejects.toThrow(/cannot be updated in place/);
    await expect(widget.runtime.diff(undefined, "widget-1", { colour: "red" }, { label: "a" })).rejects.toThrow(
      /widget widget-1: its recorded state has a shape this version .* does not know \(keys: colour\).*Nothing was sent/s,
    );
    await expect(widget.runtime.delete(undefined, "widget-1", state)).resolves.toBeUndefined();
  });

  test("every kind records the service it was made in; a base URL of another service replaces it, said; a respelling does not", async () => {
    const warnings: string[] = [];
    const log = { warn: (m: string) => void warnings.push(m), status: () => undefined, flush: async () => undefined };
    const at = (baseUrl: string) => ({ get: (key: string) => (key === "messaging:baseUrl" ? baseUrl : undefined), log });
    const created = await widget.runtime.create(at("http://user:pw@127.0.0.1:4010/"), { label: "a" });
    expect(created.outs).toMatchObject({ serviceUrl: "http://127.0.0.1:4010" });
    const state = { ...created.outs };
    await expect(widget.runtime.diff(at("http://localhost:4010"), "widget-1", state, { label: "a" })).resolves.toMatchObject({
      changes: false,
    });
    await expect(widget.runtime.diff(at("https://api.example.com"), "widget-1", state, { label: "a" })).resolves.toEqual({
      changes: true,
      replaces: ["serviceUrl"],
      deleteBeforeReplace: false,
    });
    expect(warnings).toEqual([
      expect.stringMatching(
        /widget widget-1 lives at http:\/\/127\.0\.0\.1:4010; .* now reaches https:\/\/api\.example\.com, another service/,
      ),
    ]);
    // Recorded by a release before it, or no base URL set: where it lives cannot be told, so it never moves.
    await expect(
      widget.runtime.diff(at("https://api.example.com"), "widget-1", { label: "a", serial: 7, key: "k" }, { label: "a" }),
    ).resolves.toMatchObject({ changes: false });
    await expect(widget.runtime.diff(undefined, "widget-1", state, { label: "a" })).resolves.toMatchObject({ changes: false });
  });

  test("the TypeScript class registers every input, every output-only key, secrets wrapped", async () => {
    const props = resourceProps(widget, { label: "a", token: "t" }, { hidden: "h" });
    expect(Object.keys(props)).toEqual(["label", "token", "serial", "key", "serviceUrl", "hidden"]);
    expect(props.label).toBe("a");
    expect(props.serial).toBeUndefined();
    expect(props.key).toBeUndefined();
    expect(pulumi.Output.isInstance(props.token)).toBe(true);
    await expect(pulumi.isSecret(props.token as pulumi.Output<string>)).resolves.toBe(true);
    // An absent secret input stays absent, not a secret `undefined`.
    expect(resourceProps(widget, { label: "a" }).token).toBeUndefined();
    expect(withSecretOutputs(widget, { additionalSecretOutputs: ["label"] }).additionalSecretOutputs).toEqual(["label", "key"]);
  });

  test("the plugin's schema has it: types, required lists, secrets and descriptions", () => {
    const resource = packageSchema("1.2.3", kinds).resources["messaging:index:Widget"];
    expect(resource).toEqual({
      // What an SDK's doc comments cannot otherwise say (Go's Args, Python's help()): required, secret.
      description:
        "A widget of a service that does not exist.\n\nRequired inputs: `label`. Secret outputs (encrypted in the state, masked in output): `key`.",
      inputProperties: {
        label: { type: "string", description: "Required. What the widget shows." },
        token: {
          type: "string",
          description: "A Pulumi secret: encrypted in the state, masked in the CLI's output. Lets the widget in.",
          secret: true,
        },
      },
      requiredInputs: ["label"],
      properties: {
        label: { type: "string", description: "What the widget shows." },
        serial: { type: "number", description: "Serial number the service gave." },
        key: {
          type: "string",
          description: "A Pulumi secret: encrypted in the state, masked in the CLI's output. The widget's key, or null.",
          secret: true,
        },
        serviceUrl: { type: "string", description: expect.stringMatching(/^The service the resource was made in/) },
      },
      required: ["label", "serial"],
    });
    // The served kinds are the registry's: the test's third kind did not leak into them.
    expect(SERVED_KINDS.map(tokenOf)).not.toContain("messaging:index:Widget");
  });

  test("the plugin dispatches to its runtime by token and marks its secret outputs", async () => {
    const provider = new MessagingProvider(kinds);
    const created = await provider.create(URN, { label: "a", token: "t" });
    expect(created.id).toBe("widget-1");
    expect(created.properties.label).toBe("a");
    expect(isSecret(created.properties.key)).toBe(true);
    const checked = await provider.check(URN, {}, { label: "" });
    expect(checked.failures.map((failure) => failure.property)).toEqual(["label"]);
  });
});
