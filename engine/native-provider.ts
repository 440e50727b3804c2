/**
 * The native route: resources of a provider package (`messaging:index:*`), served by a
 * provider plugin instead of the dynamic-provider host. This file plays the parts of the
 * engine that find that plugin, register its default provider and configure it. Every rule
 * cites its source in pulumi/pulumi v3.239.0 (see engine/README.md, "The native route").
 */
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import type { PlanStep, StepOp } from "./plan";
import type { HostDiff } from "./provider-host";
import { lookPath, type ProviderPlugin } from "./provider-plugin";
import { isSecretWrapper, markSecretOutputs, plainProps, wrapSecret } from "./secrets";
import { defaultProviderState, type ResourceState, type StackState } from "./state";
import { generateUrn } from "./urn";
import { sameProperties } from "./properties";

type Props = Record<string, unknown>;

/** The one provider package the model serves natively. */
export const NATIVE_PACKAGE = "messaging";
/** `providers.UnknownID`: a new provider's id in a preview. */
const UNKNOWN_ID = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A `plugins.providers` entry of Pulumi.yaml. */
export interface ProjectPlugin {
  name: string;
  path: string;
  version?: string;
}

/**
 * Where the engine finds `pulumi-resource-<pkg>` (`workspace/plugins.go`
 * `getPluginInfoAndPath`): a `plugins.providers` entry of the project (its directory's
 * executable), else the executable on `PATH` (`exec.LookPath`). The plugin cache is not
 * modelled: a plugin found nowhere else is refused.
 */
export function findProviderPlugin(pkg: string, projectDir: string, projectPlugins: ProjectPlugin[], env: NodeJS.ProcessEnv): string {
  const file = `pulumi-resource-${pkg}`;
  const listed = projectPlugins.find((plugin) => plugin.name === pkg);
  if (listed) {
    if (listed.version !== undefined)
      throw new Error(`the local engine does not model plugin versions (plugins.providers ${pkg} ${listed.version})`);
    return path.join(path.resolve(projectDir, listed.path), file);
  }
  const onPath = lookPath(file, env);
  if (onPath) return onPath;
  throw new Error(
    `the local engine does not model the plugin cache: no resource plugin '${file}' in plugins.providers of Pulumi.yaml or on $PATH ` +
      `(the engine would then look in ~/.pulumi/plugins, filled by \`pulumi plugin install resource ${pkg} <version> --file <archive>\`)`,
  );
}

/**
 * A package's config for its default provider (`deploy/target.go` `GetPackageConfig`): only
 * the keys of its namespace, without the namespace, secure values as secrets.
 */
export function packageConfig(pkg: string, config: Record<string, string>, secretKeys: string[]): Props {
  const own = Object.entries(config).filter(([key]) => key.split(":")[0] === pkg);
  return Object.fromEntries(own.map(([key, value]) => [key.slice(pkg.length + 1), secretKeys.includes(key) ? wrapSecret(value) : value]));
}

/** A registered default provider: its state, the step taken, and how its plugin takes secrets. */
export interface NativeProvider {
  state: ResourceState;
  step: PlanStep;
  /** Configure's `acceptSecrets`: property maps then keep their secrets both ways (provider_plugin.go `KeepSecrets`). */
  acceptsSecrets: boolean;
}

/**
 * Registers the default provider `pulumi:providers:<pkg>::default` and configures its plugin,
 * as the engine does for a program's first resource of the package:
 * - its inputs are the package config (`source_eval.go` `newRegisterDefaultProviderEvent`);
 * - the plugin is loaded and asked GetPluginInfo (`plugin/host.go` `Provider`);
 * - Check is the plugin's CheckConfig, with secrets stripped going in and marked again by name
 *   coming back (`providers/registry.go` `Check`; `provider_plugin.go` `CheckConfig`);
 * - for an existing provider, Diff is DiffConfig, a DIFF_UNKNOWN answer decided by comparing
 *   old outputs and new inputs (`registry.go` `Diff`); a replacement is not modelled;
 * - Configure gets the checked inputs, secrets wrapped (`provider_plugin.go` `Configure`).
 *
 * With `fromState` (refresh, destroy) the provider is configured from its recorded inputs
 * with no check or diff (`registry.go` `Same`, reached through `EnsureProvider`).
 */
export async function registerNativeProvider(options: {
  pkg: string;
  plugin: ProviderPlugin;
  stack: string;
  project: string;
  config: Record<string, string>;
  secretKeys: string[];
  prior: StackState;
  preview: boolean;
  fromState: boolean;
}): Promise<NativeProvider> {
  const { pkg, plugin, stack, project, prior, preview } = options;
  const type = `pulumi:providers:${pkg}`;
  const urn = generateUrn(stack, project, "", type, "default");
  const old = prior.resources.find((resource) => resource.urn === urn && !resource.delete);
  await plugin.getPluginInfo();

  let inputs: Props;
  let op: StepOp;
  if (options.fromState && old) {
    inputs = old.inputs;
    op = "same";
  } else {
    const goal = packageConfig(pkg, options.config, options.secretKeys);
    const checked = await plugin.checkConfig(urn, plainProps(old?.inputs ?? {}), plainProps(goal));
    if (checked.failures.length > 0) {
      // step_generator.go `issueCheckFailures`, diag.GetResourcePropertyInvalidValueError (the value as Go prints it).
      throw new Error(
        checked.failures
          .map((failure) =>
            failure.property
              ? `${type} resource 'default': property ${failure.property} value ${goPropertyValue(goal[failure.property])} has a problem: ${failure.reason}`
              : `${type} resource 'default' has a problem: ${failure.reason}`,
          )
          .join("\n"),
      );
    }
    inputs = markSecretOutputs(checked.inputs, goal, []);
    op = old ? await diffProvider(plugin, urn, old, inputs) : "create";
  }

  // A same provider is configured with its old inputs and keeps its old outputs (step.go
  // `SameStep.Apply`: "we want to use the old inputs"; registry.go `Same`); a created or
  // updated one is configured with the new inputs, which are its outputs (registry.go `Create`, `Update`).
  const same = op === "same" && old !== undefined;
  const configured = same ? old.inputs : inputs;
  const plain = plainProps(configured) as Record<string, string>;
  const answer = await plugin.configure(
    Object.fromEntries(Object.entries(plain).map(([key, value]) => [`${pkg}:${key}`, value])),
    Object.keys(configured)
      .filter((key) => isSecretWrapper(configured[key]))
      .map((key) => `${pkg}:${key}`),
  );
  const id = old?.id ?? (preview ? UNKNOWN_ID : randomUUID());
  return {
    state: same ? { ...defaultProviderState(urn, type, id, inputs), outputs: old.outputs } : defaultProviderState(urn, type, id, inputs),
    step: { op, urn, type, name: "default", id },
    acceptsSecrets: answer.acceptSecrets,
  };
}

async function diffProvider(plugin: ProviderPlugin, urn: string, old: ResourceState, inputs: Props): Promise<StepOp> {
  const diff: HostDiff = await plugin.diffConfig(urn, plainProps(old.outputs), plainProps(inputs), plainProps(old.inputs));
  if (diff.replaces.length > 0)
    throw new Error(`the local engine does not model replacing a provider (${urn}: ${diff.replaces.join(", ")})`);
  const changes = diff.changes === "unknown" ? !sameProperties(old.outputs, inputs) : diff.changes === "some";
  return changes ? "update" : "same";
}

/** Go's `{%v}` of a `resource.PropertyValue` (properties.go `String`); a secret is a `*Secret`, printed `&{{…}}`. */
export function goPropertyValue(value: unknown): string {
  const inner = (v: unknown): string => {
    if (v === undefined || v === null) return "<nil>";
    if (isSecretWrapper(v)) return `&{${goPropertyValue(v.value)}}`;
    if (Array.isArray(v)) return `[${v.map((item) => `{${inner(item)}}`).join(" ")}]`;
    if (typeof v === "object") {
      return `map[${Object.keys(v)
        .sort()
        .map((key) => `${key}:{${inner((v as Props)[key])}}`)
        .join(" ")}]`;
    }
    return String(v);
  };
  return `{${inner(value)}}`;
}
