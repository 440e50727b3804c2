// go run . up | preview | destroy [--stack NAME]
//
// Deploys a webhook endpoint and a message batch with Pulumi's Automation API, from Go: the
// program is the function below (an inline program), run in this process; the engine is the
// `pulumi` CLI on PATH; the state goes to your backend (`pulumi login`, or PULUMI_BACKEND_URL).
//
//   - The stack lives in this folder (auto.WorkDir): its config file, Pulumi.<stack>.yaml, is
//     here, so the stack and its pinned identity are the same on every run.
//   - The provider reads MESSAGING_API_KEY and MESSAGING_BASE_URL from the environment, so the
//     key is never written to the stack's config or state.
//   - The engine installs the provider plugin by itself: the SDK names where it is released.
//
//     go get github.com/pulumi-messaging/pulumi-messaging/sdk/go@v0.1.0
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/pulumi-messaging/pulumi-messaging/sdk/go/messaging"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func program(ctx *pulumi.Context) error {
	receiverURL := config.Get(ctx, "receiverUrl")
	if receiverURL == "" {
		receiverURL = "https://hooks.example.com/payments"
	}
	payments, err := messaging.NewWebhookEndpoint(ctx, "payments", &messaging.WebhookEndpointArgs{
		Url:         pulumi.String(receiverURL),
		Events:      pulumi.StringArray{pulumi.String("payment.succeeded")},
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
		},
	})
	if err != nil {
		return err
	}
	ctx.Export("endpointId", payments.ID())
	ctx.Export("signingSecret", payments.Secret)
	ctx.Export("messageCount", welcome.MessageCount)
	return nil
}

func deploy(ctx context.Context, operation, stackName string) error {
	workDir, err := os.Getwd()
	if err != nil {
		return err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "messaging-automation-go", program, auto.WorkDir(workDir))
	if err != nil {
		return err
	}
	// Pinned once: the stack's identity then survives whatever happens to its state (docs/configuration.md).
	if _, err := stack.GetConfig(ctx, "messaging:stackIdentity"); err != nil {
		identity := make([]byte, 16)
		if _, err := rand.Read(identity); err != nil {
			return err
		}
		if err := stack.SetConfig(ctx, "messaging:stackIdentity", auto.ConfigValue{Value: hex.EncodeToString(identity)}); err != nil {
			return err
		}
	}
	switch operation {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		for name, output := range result.Outputs {
			if output.Secret {
				fmt.Printf("%s: [secret]\n", name)
			} else {
				fmt.Printf("%s: %v\n", name, output.Value)
			}
		}
		return nil
	case "preview":
		_, err := stack.Preview(ctx, optpreview.ProgressStreams(os.Stdout))
		return err
	case "destroy":
		_, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout))
		return err
	default:
		return fmt.Errorf("unknown operation '%s': use up, preview or destroy", operation)
	}
}

func main() {
	operation, stackName := "up", "dev"
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		if args[i] == "--stack" && i+1 < len(args) {
			stackName = args[i+1]
			i++
		} else {
			operation = args[i]
		}
	}
	if err := deploy(context.Background(), operation, stackName); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
