import * as pulumi from "@pulumi/pulumi";
import { WebhookEndpoint } from "pulumi-messaging";

// Where your receivers run. The provider reads messaging:apiKey / messaging:baseUrl itself.
const config = new pulumi.Config();
const receiverBaseUrl = config.get("receiverBaseUrl") ?? "https://receiver.example.com/webhooks";

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

// Ids are plain outputs; secrets stay secret (`pulumi stack output --show-secrets` reveals them).
export const paymentsEndpointId = payments.id;
export const paymentsSigningSecret = payments.secret;
export const identityEndpointId = identity.id;
export const identitySigningSecret = identity.secret;
