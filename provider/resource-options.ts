/** Program-side rules shared by the resource classes: what they refuse, scope and warn about. */
import * as pulumi from "@pulumi/pulumi";
import { SETTINGS } from "../client/settings";
import { UnsupportedOperationError } from "../errors";

/**
 * Pulumi's `import` never reaches a dynamic provider: the engine reads the resource with
 * its id and no recorded state, and the provider host fails before any provider code runs
 * (engine/README.md, "import"). So the option is refused here, with what to do instead.
 */
export function refuseImport(kind: string, name: string, opts: pulumi.CustomResourceOptions | undefined, instead: string): void {
  if (opts?.import === undefined) return;
  throw new UnsupportedOperationError(
    `${kind} "${name}" cannot be imported (import: ${JSON.stringify(opts.import)}): the messaging service has no operation ` +
      `to retrieve it, so Pulumi cannot read its settings. Remove the \`import\` option and ${instead}.`,
  );
}

/**
 * The resource's place in the stack: `<project>/<stack>/<name>` for a top-level resource
 * (the form earlier releases recorded), the parent's URN and the name under a parent, so
 * two same-named resources under different components never share a scope.
 */
export function resourceScope(name: string, opts: pulumi.CustomResourceOptions | undefined): pulumi.Input<string> {
  const parent = opts?.parent;
  if (!parent) return `${pulumi.getProject()}/${pulumi.getStack()}/${name}`;
  return parent.urn.apply((urn) => `${urn}/${name}`);
}

const API_KEY_CONFIG = SETTINGS.apiKey.config;
let apiKeyChecked = false;

/**
 * Pulumi registers a dynamic provider with the whole stack config as its inputs, so
 * `messaging:apiKey` is saved in the stack's state (entry
 * `pulumi:providers:pulumi-nodejs::default`): encrypted only when set with `--secret`.
 * The provider itself cannot tell (the host unwraps secrets before `configure`); the program
 * can, so the first resource warns once.
 */
export function warnIfApiKeyNotSecret(): void {
  if (apiKeyChecked) return;
  apiKeyChecked = true;
  // `isConfigSecret` is the SDK's own reading of PULUMI_CONFIG_SECRET_KEYS (marked internal, so feature-tested).
  const isConfigSecret = (pulumi.runtime as unknown as { isConfigSecret?: (key: string) => boolean }).isConfigSecret;
  if (typeof isConfigSecret !== "function" || pulumi.runtime.getConfig(API_KEY_CONFIG) === undefined) return;
  if (!isConfigSecret(API_KEY_CONFIG)) {
    void pulumi.log.warn(
      `${API_KEY_CONFIG} is set in plain text. Pulumi saves the whole stack config in the stack's state (resource ` +
        "pulumi:providers:pulumi-nodejs::default), so the API key is stored unencrypted there and in Pulumi.<stack>.yaml. " +
        `Set it again with \`pulumi config set --secret ${API_KEY_CONFIG} <key>\`.`,
    );
  }
}
