#!/usr/bin/env node
// node deploy.js up | preview | destroy [--stack NAME]
//
// Deploys the webhook endpoints of examples/webhooks with Pulumi's Automation API: the
// program is the function below (an inline program), run in this process; the engine is the
// `pulumi` CLI on PATH (3.181 or later); the state goes to your backend (`pulumi login`, or
// PULUMI_BACKEND_URL). The provider reads MESSAGING_API_KEY and MESSAGING_BASE_URL from the
// environment, so the key is never written to the stack's config or state.
"use strict";
const { randomBytes } = require("node:crypto");
const pulumi = require("@pulumi/pulumi");
const { LocalWorkspace } = require("@pulumi/pulumi/automation");
const { WebhookEndpoint } = require("pulumi-messaging");

/** The program: the two endpoints of examples/webhooks, and their ids and secrets as outputs. */
async function program() {
  const receiverBaseUrl = new pulumi.Config().get("receiverBaseUrl") ?? "https://receiver.example.com/webhooks";
  const payments = new WebhookEndpoint("payments", {
    url: `${receiverBaseUrl}/payments`,
    events: ["payment.succeeded"],
    description: "Payment notifications for the billing service",
  });
  const identity = new WebhookEndpoint("identity", {
    url: `${receiverBaseUrl}/identity`,
    events: ["identity.verification.created"],
    format: "cloudEvents",
  });
  return {
    paymentsEndpointId: payments.id,
    paymentsSigningSecret: payments.secret,
    identityEndpointId: identity.id,
    identitySigningSecret: identity.secret,
  };
}

/**
 * Runs one operation on the stack (created on first use) and resolves with the engine's
 * summary and, after `up`, the outputs (`{ value, secret }` each).
 * @param {"up" | "preview" | "destroy"} operation
 * @param {{ stackName?: string, receiverBaseUrl?: string, expectNoChanges?: boolean, onOutput?: (text: string) => void }} [options]
 */
async function deploy(operation, options = {}) {
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: options.stackName ?? "dev", projectName: "messaging-automation", program },
    { workDir: __dirname },
  );
  if (options.receiverBaseUrl) await stack.setConfig("receiverBaseUrl", { value: options.receiverBaseUrl });
  // Pinned once: the stack's identity then survives whatever happens to its state (docs/configuration.md).
  const config = await stack.getAllConfig();
  if (!config["messaging:stackIdentity"]) await stack.setConfig("messaging:stackIdentity", { value: randomBytes(16).toString("hex") });
  const run = { onOutput: options.onOutput, expectNoChanges: options.expectNoChanges, color: "never" };
  switch (operation) {
    case "up": {
      const result = await stack.up(run);
      return { changes: result.summary.resourceChanges ?? {}, outputs: result.outputs };
    }
    case "preview":
      return { changes: (await stack.preview(run)).changeSummary, outputs: {} };
    case "destroy":
      return { changes: (await stack.destroy(run)).summary.resourceChanges ?? {}, outputs: {} };
    default:
      throw new Error(`unknown operation '${operation}': use up, preview or destroy`);
  }
}

/** An output as it may be printed: a secret shows as [secret]. */
const shown = ({ value, secret }) => (secret ? "[secret]" : String(value));

async function main(argv) {
  const [operation, ...rest] = argv;
  if (!["up", "preview", "destroy"].includes(operation)) {
    process.stderr.write("usage: node deploy.js up | preview | destroy [--stack NAME]\n");
    return 2;
  }
  const stackName = rest[0] === "--stack" ? rest[1] : undefined;
  const result = await deploy(operation, {
    stackName,
    receiverBaseUrl: process.env.RECEIVER_BASE_URL,
    onOutput: (text) => process.stdout.write(text),
  });
  if (operation === "up") {
    process.stdout.write("\noutputs:\n");
    for (const [name, output] of Object.entries(result.outputs)) process.stdout.write(`  ${name.padEnd(24)} ${shown(output)}\n`);
  }
  return 0;
}

module.exports = { deploy, program };

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
