"""A webhook endpoint and a message batch through the messaging provider plugin."""
import pulumi
import pulumi_messaging as messaging

config = pulumi.Config()
receiver_url = config.get("receiverUrl") or "https://hooks.example.com/payments"

payments = messaging.WebhookEndpoint(
    "payments",
    url=receiver_url,
    events=["payment.succeeded", "identity.verification.created"],
    format=messaging.WebhookEndpointFormat.BASIC,
    description="billing receiver",
)

welcome = messaging.MessageBatch(
    "welcome",
    stream="transactional",
    messages=[
        messaging.MessageBatchMessageArgs(tos=["+254712345678"], body="Welcome aboard"),
        messaging.MessageBatchMessageArgs(
            tos=["+254712345679"],
            template=messaging.MessageBatchMessageTemplateArgs(id="tmpl_welcome", model={"name": "Amina"}),
        ),
    ],
    triggers=["1"],
)

pulumi.export("endpointId", payments.id)
# A secret: `pulumi stack output signingSecret --show-secrets` reveals it.
pulumi.export("signingSecret", payments.secret)
pulumi.export("messageCount", welcome.message_count)
