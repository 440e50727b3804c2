#!/usr/bin/env bash
# `npm run pulumi:path`: finds or builds the real Pulumi CLI that the tests, the demo and CI run.
# Its last line of output is the directory holding `pulumi` (progress goes to stderr).
#
# 1. A `pulumi` on PATH (3.181 or later, which the tests' inline programs need: the Automation
#    API's --client; with pulumi-language-yaml and pulumi-resource-pulumi-nodejs beside it, in a
#    folder named bin, where the Automation API looks for it) is used as it is.
# 2. Otherwise the release pinned in scripts/pulumi-cli/go.mod is built from Pulumi's Go modules,
#    as the release builds it, into a cache outside the repository keyed by version
#    ($PULUMI_MESSAGING_CACHE, default ~/.cache/pulumi-messaging), and reused afterwards.
#    A cold build took 4.5 minutes on 2 cores (plus about 1 for the YAML host; 372 s for both on
#    a machine busy with other work), a rebuild with Go's build cache warm 8 s (docs/real-engine.md).
#
# The Node.js, Python and Go language hosts are not built: their modules
# (github.com/pulumi/pulumi/sdk/{nodejs,python,go}/...) are not served by the Go module proxy
# these machines reach. TypeScript programs run through the Automation API's inline programs,
# which need no language host (docs/real-engine.md).
set -euo pipefail

module_dir="$(cd "$(dirname "$0")" && pwd)"
say() { printf '%s\n' "$*" >&2; }

# The CLI's version, read from go.mod so that it is written once. The YAML host is a module of
# its own, installed with its own go.mod and go.sum (it builds against an older pkg/v3 than the
# CLI's, and speaks to any later CLI over gRPC).
cli_version="$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2; exit }' "$module_dir/go.mod")"
yaml_version="v1.25.0"
min_version="3.181.0"

version_at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

# 1. A CLI already installed.
if on_path="$(command -v pulumi 2>/dev/null)"; then
  dir="$(cd "$(dirname "$on_path")" && pwd -P)"
  found="$("$on_path" version 2>/dev/null | sed 's/^v//')" || found=""
  if [ -n "$found" ] && version_at_least "$found" "$min_version" &&
    [ -x "$dir/pulumi-language-yaml" ] && [ -x "$dir/pulumi-resource-pulumi-nodejs" ] && [ "$(basename "$dir")" = bin ]; then
    say "using the Pulumi CLI on PATH: $on_path (v$found)"
    printf '%s\n' "$dir"
    exit 0
  fi
  say "the pulumi on PATH ($on_path, '${found:-no version}') is not used: this project needs $min_version or later in a folder named bin, with pulumi-language-yaml and pulumi-resource-pulumi-nodejs beside it"
fi

cache_root="${PULUMI_MESSAGING_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-messaging}"
bin="$cache_root/pulumi-$cli_version-yaml-$yaml_version/bin"

# 2a. Built before.
if [ -x "$bin/pulumi" ] && [ "$("$bin/pulumi" version 2>/dev/null)" = "$cli_version" ]; then
  say "using the Pulumi CLI built before: $bin/pulumi ($cli_version)"
  printf '%s\n' "$bin"
  exit 0
fi

# 2b. Built now.
if ! command -v go >/dev/null 2>&1; then
  say "error: no Pulumi CLI found, and no Go toolchain to build one. Either:"
  say "  - install the Pulumi CLI ($min_version or later; https://www.pulumi.com/docs/install/) and put it on PATH, or"
  say "  - install Go 1.26 or later (https://go.dev/dl/), and run this again to build Pulumi $cli_version from its Go modules."
  exit 1
fi

say "building Pulumi $cli_version and pulumi-language-yaml $yaml_version into $bin"
say "(from the Go module proxy; about 5 minutes the first time on 2 cores, 6 on a busy machine; seconds with Go's build cache warm)"
staging="$cache_root/.staging-$$"
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging" "$cache_root"
started=$SECONDS
cd "$module_dir"
export CGO_ENABLED=0 GOFLAGS=-mod=readonly
go mod download
# `go build -v` names each package as it is compiled: shown as a running count.
log="$cache_root/build-$cli_version.log"
go build -v -trimpath -tags osusergo,grpcnotrace \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$cli_version" \
  -o "$staging/" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi 2>&1 |
  tee "$log" | awk '{ if (++n % 100 == 0) printf "  %d packages compiled\n", n > "/dev/stderr" }' || true
say "  the CLI is built; now pulumi-language-yaml $yaml_version"
GOBIN="$staging" GOFLAGS= go install -trimpath -tags osusergo,grpcnotrace -ldflags "-s -w" \
  "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@$yaml_version" >>"$log" 2>&1 || true
[ -x "$staging/pulumi" ] && [ -x "$staging/pulumi-language-yaml" ] || {
  tail -n 30 "$log" >&2
  say "error: the build of Pulumi $cli_version failed; its log: $log"
  exit 1
}
# Files the release ships beside the binaries, from the sdk/v3 module: the dynamic providers'
# launchers and the Python host's runner.
sdk_dir="$(go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
for file in nodejs/dist/pulumi-resource-pulumi-nodejs python/dist/pulumi-resource-pulumi-python python/cmd/pulumi-language-python-exec; do
  install -m 0755 "$sdk_dir/$file" "$staging/"
done
mkdir -p "$(dirname "$bin")"
rm -rf "$bin"
mv "$staging" "$bin"
say "built Pulumi $("$bin/pulumi" version) in $((SECONDS - started)) s"
printf '%s\n' "$bin"
