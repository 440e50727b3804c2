#!/usr/bin/env bash
# `npm run sdk:pack`: the generated SDKs (sdk/, written by `npm run sdk:generate`) as packages a
# user installs, into dist/sdk/:
#   pulumi_messaging-<version>-py3-none-any.whl   pip's wheel of sdk/python
#   pulumi-messaging-messaging-<version>.tgz      sdk/nodejs compiled by its own `tsc` into bin/,
#                                                 package.json beside it, `npm pack` of bin/ (as
#                                                 Pulumi's providers publish their nodejs SDKs)
# The Go SDK is not packed: users `go get` its module path (docs/languages.md).
# Needs python3 with pip, and npm; both fetch build tools (setuptools, TypeScript, @pulumi/pulumi)
# from their registries the first time.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/dist/sdk"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# Built from a copy: pip's build leaves build/ and *.egg-info beside the sources.
cp -R "$root/sdk/python" "$work/python"
python3 -m pip wheel --quiet --no-deps --wheel-dir "$out" "$work/python"

cp -R "$root/sdk/nodejs" "$work/nodejs"
cd "$work/nodejs"
npm install --no-audit --no-fund --ignore-scripts --loglevel=error
npx tsc
cp package.json bin/
npm pack ./bin --pack-destination "$out" --loglevel=error >/dev/null

ls -1 "$out"
