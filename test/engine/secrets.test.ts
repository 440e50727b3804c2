import { markSecretOutputs, wrapSecret } from "../../engine/secrets";

// provider_plugin.go `annotateSecrets`, then step_executor.go `continueExecuteStep`'s additionalSecretOutputs.

test("an output whose input of the same name holds a secret is made secret; others stay plain", () => {
  const marked = markSecretOutputs({ url: "u", events: ["a"], id: "x" }, { url: wrapSecret("u"), events: [wrapSecret("a")] }, []);
  expect(marked).toEqual({ url: wrapSecret("u"), events: wrapSecret(["a"]), id: "x" });
});

test("an object output whose input is an object too is annotated key by key, not made secret whole", () => {
  const marked = markSecretOutputs(
    { adopt: { id: "we_1", secret: "whsec_1" }, model: { a: 1 } },
    { adopt: { id: "we_1", secret: wrapSecret("whsec_1") }, model: wrapSecret({ a: 1 }) },
    [],
  );
  expect(marked).toEqual({ adopt: { id: "we_1", secret: wrapSecret("whsec_1") }, model: wrapSecret({ a: 1 }) });
});

test("additionalSecretOutputs make top-level outputs secret; a secret is not wrapped twice", () => {
  const marked = markSecretOutputs({ secret: "s", etag: wrapSecret("e"), status: "active" }, {}, ["secret", "etag"]);
  expect(marked).toEqual({ secret: wrapSecret("s"), etag: wrapSecret("e"), status: "active" });
});
