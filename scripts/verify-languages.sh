#!/usr/bin/env bash
# Runs the YAML, Python and Go examples for real, through the provider plugin, against a local
# emulator: preview, up, a second up that must change nothing, destroy. For a machine with a
# Pulumi CLI (3.139 or later), Node.js, Python 3 and Go; the machines this package is built on
# have none of these CLIs, so there the plugin is proven by the gRPC, differential and engine
# tests instead (README, "Every Pulumi language").
#
#   scripts/verify-languages.sh [yaml] [python] [go]     (default: all three)
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -gt 0 ]; then LANGUAGES=("$@"); else LANGUAGES=(yaml python go); fi
API_KEY="sk_test_verify_languages"

need() { command -v "$1" >/dev/null || { echo "verify-languages: '$1' is not on PATH ($2)" >&2; exit 2; }; }
need pulumi "install the Pulumi CLI: https://www.pulumi.com/docs/install/"
need node "Node.js 20.18.1 or later"
for language in "${LANGUAGES[@]}"; do
  case "$language" in
    python) need python3 "Python 3.9 or later" ;;
    go) need go "Go 1.22 or later" ;;
    yaml) ;;
    *) echo "verify-languages: unknown language '$language' (yaml, python, go)" >&2; exit 2 ;;
  esac
done

WORK="$(mktemp -d)"
EMULATOR_PID=""
cleanup() {
  [ -n "$EMULATOR_PID" ] && kill "$EMULATOR_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== plugin: pack and install"
cd "$REPO"
ARCHIVE="$(npm run --silent plugin:pack)"
VERSION="$(node -p "require('$REPO/package.json').version")"
pulumi plugin install resource messaging "$VERSION" --file "$ARCHIVE" --reinstall
mkdir -p "$WORK/plugin" && tar -xzf "$ARCHIVE" -C "$WORK/plugin"

echo "== emulator"
node "$REPO/dist/cli/main.js" emulator --port 0 --api-key "$API_KEY" >"$WORK/emulator.log" 2>&1 &
EMULATOR_PID=$!
for _ in $(seq 1 100); do
  BASE_URL="$(grep -o 'http://127.0.0.1:[0-9]*' "$WORK/emulator.log" | head -n 1 || true)"
  [ -n "$BASE_URL" ] && break
  sleep 0.1
done
[ -n "${BASE_URL:-}" ] || { echo "verify-languages: the emulator did not start" >&2; cat "$WORK/emulator.log" >&2; exit 1; }

export PULUMI_BACKEND_URL="file://$WORK/state"
export PULUMI_CONFIG_PASSPHRASE="verify-languages"
export PULUMI_SKIP_UPDATE_CHECK=true
mkdir -p "$WORK/state"

endpoints() { curl -fsS -u "$API_KEY:" "$BASE_URL/_emulator/endpoints" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).length))'; }

for language in "${LANGUAGES[@]}"; do
  echo "== $language"
  cp -R "$REPO/examples/$language" "$WORK/$language"
  cd "$WORK/$language"
  pulumi stack init "verify-$language" --non-interactive
  if [ "$language" != yaml ]; then
    # Generates the SDK from the plugin's schema and wires it into the project (requirements / go.mod).
    pulumi package add "$WORK/plugin/pulumi-resource-messaging"
    pulumi install
  fi
  pulumi config set messaging:baseUrl "$BASE_URL"
  pulumi config set --secret messaging:apiKey "$API_KEY"
  before="$(endpoints)"
  pulumi preview --non-interactive
  pulumi up --yes --non-interactive
  [ "$(endpoints)" -eq $((before + 1)) ] || { echo "verify-languages: $language: expected one new endpoint" >&2; exit 1; }
  pulumi stack output signingSecret --show-secrets | grep -q '^whsec_' || { echo "verify-languages: $language: no signing secret" >&2; exit 1; }
  pulumi up --yes --non-interactive --expect-no-changes
  pulumi destroy --yes --non-interactive
  pulumi stack rm --yes --non-interactive
done

echo "verify-languages: ${LANGUAGES[*]}: preview, up, up (no changes) and destroy passed"
