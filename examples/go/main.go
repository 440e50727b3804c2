// A webhook endpoint and a message batch through the messaging provider plugin.
package main

import (
	"github.com/pulumi-messaging/pulumi-messaging/sdk/go/messaging"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(program)
}

// program declares the stack's resources; main runs it with pulumi.Run (and the repository's
// tests run it as an Automation API inline program).
func program(ctx *pulumi.Context) error {
	receiverUrl := config.Get(ctx, "receiverUrl")
	if receiverUrl == "" {
		receiverUrl = "https://hooks.example.com/payments"
	}

	payments, err := messaging.NewWebhookEndpoint(ctx, "payments", &messaging.WebhookEndpointArgs{
		Url:         pulumi.String(receiverUrl),
		Events:      pulumi.StringArray{pulumi.String("payment.succeeded"), pulumi.String("identity.verification.created")},
		Format:      messaging.WebhookEndpointFormatBasic,
		Description: pulumi.String("billing receiver"),
	})
	if err != nil {
		return err
	}

	welcome, err := messaging.NewMessageBatch(ctx, "welcome", &messaging.MessageBatchArgs{
		Stream: pulumi.String("transactional"),
		Messages: messaging.MessageBatchMessageArray{
			&messaging.MessageBatchMessageArgs{
				Tos:  pulumi.StringArray{pulumi.String("+254712345678")},
				Body: pulumi.String("Welcome aboard"),
			},
			&messaging.MessageBatchMessageArgs{
				Tos: pulumi.StringArray{pulumi.String("+254712345679")},
				Template: &messaging.MessageBatchMessageTemplateArgs{
					Id:    pulumi.String("tmpl_welcome"),
					// A nil entry is reported dropped by the Go SDK before the provider sees it: leave the key out (docs/json-rule.md).
					Model: pulumi.Map{"name": pulumi.String("Amina")},
				},
			},
		},
		Triggers: pulumi.Array{pulumi.String("1")},
	})
	if err != nil {
		return err
	}

	ctx.Export("endpointId", payments.ID())
	// A secret: `pulumi stack output signingSecret --show-secrets` reveals it.
	ctx.Export("signingSecret", payments.Secret)
	ctx.Export("messageCount", welcome.MessageCount)
	return nil
}
