"""python deploy.py up | preview | destroy [--stack NAME]

Deploys a webhook endpoint and a message batch with Pulumi's Automation API, from Python: the
program is the function below (an inline program), run in this process; the engine is the
`pulumi` CLI on PATH; the state goes to your backend (`pulumi login`, or PULUMI_BACKEND_URL).

- The stack lives in this folder (`work_dir`): its config file, Pulumi.<stack>.yaml, is here, so
  the stack and its pinned identity are the same on every run. Without it, the Automation API
  keeps the config in a temporary folder, and every run would pin a new identity.
- The provider reads MESSAGING_API_KEY and MESSAGING_BASE_URL from the environment, so the key
  is never written to the stack's config or state.
- The engine installs the provider plugin by itself: the SDK names where it is released.

    pip install pulumi_messaging
"""
import os
import secrets
import sys

import pulumi
import pulumi_messaging as messaging
from pulumi import automation as auto

HERE = os.path.dirname(os.path.abspath(__file__))


def program() -> None:
    receiver_url = pulumi.Config().get("receiverUrl") or "https://hooks.example.com/payments"
    payments = messaging.WebhookEndpoint(
        "payments",
        url=receiver_url,
        events=["payment.succeeded"],
        description="billing receiver",
    )
    welcome = messaging.MessageBatch(
        "welcome",
        stream="transactional",
        messages=[messaging.MessageBatchMessageArgs(tos=["+254712345678"], body="Welcome aboard")],
    )
    pulumi.export("endpointId", payments.id)
    pulumi.export("signingSecret", payments.secret)
    pulumi.export("messageCount", welcome.message_count)


def deploy(operation: str, stack_name: str = "dev") -> dict:
    stack = auto.create_or_select_stack(
        stack_name=stack_name,
        project_name="messaging-automation-python",
        program=program,
        opts=auto.LocalWorkspaceOptions(work_dir=HERE),
    )
    # Pinned once: the stack's identity then survives whatever happens to its state (docs/configuration.md).
    if "messaging:stackIdentity" not in stack.get_all_config():
        stack.set_config("messaging:stackIdentity", auto.ConfigValue(value=secrets.token_hex(16)))
    if operation == "up":
        result = stack.up(on_output=print, color="never")
        return {name: ("[secret]" if output.secret else output.value) for name, output in result.outputs.items()}
    if operation == "preview":
        stack.preview(on_output=print, color="never")
        return {}
    if operation == "destroy":
        stack.destroy(on_output=print, color="never")
        return {}
    raise ValueError(f"unknown operation '{operation}': use up, preview or destroy")


if __name__ == "__main__":
    args = sys.argv[1:]
    name = args[args.index("--stack") + 1] if "--stack" in args else "dev"
    for key, value in deploy(args[0] if args else "up", name).items():
        print(f"{key}: {value}")
