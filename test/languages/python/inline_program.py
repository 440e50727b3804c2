"""One Pulumi operation on a Python program, in a process of its own:
``python inline_program.py <request.json>``, started by the tests' stack driver
(test/support/harness/stack.ts, ``inlineRunner``) with the venv that has ``pulumi`` and the generated
SDK installed.

The engine is the real ``pulumi`` CLI; the program reaches it through the Automation API's
inline programs (``pulumi up --client=...``), because the Python language host cannot be built
here. The inline program runs the project's own ``__main__.py`` with ``runpy``, as the host
runs it: the example file, unchanged. The request and the result are those of
test/support/harness/inline-program.ts (``InlineRequest``, ``InlineResult``).
"""
import json
import os
import runpy
import sys
import traceback

from pulumi import automation as auto


def project_name(work_dir: str) -> str:
    with open(os.path.join(work_dir, "Pulumi.yaml"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("name:"):
                return line.split(":", 1)[1].strip()
    raise ValueError(f"{work_dir}/Pulumi.yaml has no name")


def main(request_file: str) -> None:
    with open(request_file, encoding="utf-8") as f:
        request = json.load(f)
    steps: list = []
    diagnostics: list = []

    def on_event(event: auto.EngineEvent) -> None:
        pre = event.resource_pre_event
        if pre is not None:
            meta = pre.metadata
            state = meta.new or meta.old
            step = {"op": meta.op.value, "urn": meta.urn, "type": meta.type, "name": meta.urn.rsplit("::", 1)[-1]}
            if state is not None and state.id:
                step["id"] = state.id
            if meta.keys:
                step["replaces"] = list(meta.keys)
            steps.append(step)
        failed = event.res_op_failed_event
        if failed is not None:
            for step in reversed(steps):
                if step["urn"] == failed.metadata.urn:
                    step["failed"] = True
                    break
        diagnostic = event.diagnostic_event
        if diagnostic is not None:
            entry = {"severity": diagnostic.severity, "message": diagnostic.message.rstrip()}
            if diagnostic.urn:
                entry["urn"] = diagnostic.urn
            diagnostics.append(entry)

    def program() -> None:
        runpy.run_path(os.path.join(request["workDir"], "__main__.py"), run_name="__main__")

    options = request.get("options", {})
    result: dict
    try:
        # An inline program (project name and program given) in the project's own directory, so
        # its Pulumi.yaml and stack settings are the ones the test set.
        stack = auto.select_stack(
            request["stackName"],
            project_name=project_name(request["workDir"]),
            program=program,
            opts=auto.LocalWorkspaceOptions(
                work_dir=request["workDir"],
                env_vars=request["env"],
                pulumi_command=auto.PulumiCommand(root=request["cliRoot"], skip_version_check=True),
            ),
        )
        common = {"on_output": lambda text: print(text, flush=True), "on_event": on_event, "color": "never"}
        op = request["op"]
        if op == "preview":
            preview = stack.preview(expect_no_changes=options.get("expectNoChanges"), refresh=options.get("refresh"), **common)
            result = {"ok": True, "resourceChanges": preview.change_summary}
        elif op == "up":
            # No --show-secrets for the summary read after it (as for refresh and destroy): a
            # decryption with the stack's passphrase, for values nothing here reads.
            up = stack.up(expect_no_changes=options.get("expectNoChanges"), refresh=options.get("refresh"), show_secrets=False, **common)
            outputs = {name: {"value": value.value, "secret": value.secret} for name, value in up.outputs.items()}
            result = {"ok": True, "resourceChanges": up.summary.resource_changes or {}, "outputs": outputs}
        elif op == "refresh":
            refresh = stack.refresh(clear_pending_creates=options.get("clearPendingCreates"), show_secrets=False, **common)
            result = {"ok": True, "resourceChanges": refresh.summary.resource_changes or {}}
        else:
            destroy = stack.destroy(show_secrets=False, **common)
            result = {"ok": True, "resourceChanges": destroy.summary.resource_changes or {}}
    except auto.CommandError as error:
        # What the CLI said before starting (a locked stack, say) is only in the error.
        result = {"ok": False, "error": f"pulumi {request['op']} failed: {str(error).strip()}"}
    except Exception:  # pylint: disable=broad-except
        result = {"ok": False, "error": traceback.format_exc()}
    result.update({"steps": steps, "diagnostics": diagnostics})
    with open(request["resultFile"], "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main(sys.argv[1])
