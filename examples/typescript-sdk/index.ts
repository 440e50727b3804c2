// A webhook endpoint and a message batch through the messaging provider plugin.
import * as pulumi from "@pulumi/pulumi";
import * as messaging from "@pulumi-messaging/messaging";

const config = new pulumi.Config();
const receiverUrl = config.get("receiverUrl") ?? "https://hooks.example.com/payments";

const payments = new messaging.WebhookEndpoint("payments", {
  url: receiverUrl,
  events: ["payment.succeeded", "identity.verification.created"],
  format: messaging.WebhookEndpointFormat.Basic,
  description: "billing receiver",
});

const welcome = new messaging.MessageBatch("welcome", {
  stream: "transactional",
  messages: [
    { tos: ["+254712345678"], body: "Welcome aboard" },
    { tos: ["+254712345679"], template: { id: "tmpl_welcome", model: { name: "Amina" } } },
  ],
  triggers: ["1"],
});

export const endpointId = payments.id;
// A secret: `pulumi stack output signingSecret --show-secrets` reveals it.
export const signingSecret = payments.secret;
export const messageCount = welcome.messageCount;
