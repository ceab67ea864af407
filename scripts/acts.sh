#!/usr/bin/env bash
# Runs the A2A Conformance Test Specification corpus (ACTS, tests/acts/*.acts.yaml of a2aproject/A2A) with our own
# runner (apps/acts-runner) against apps/tck-sut on 127.0.0.1, on JSON-RPC, HTTP+JSON and gRPC.
#
#   A2A_ACTS_SNAPSHOT=<git dir of a2aproject/A2A> [A2A_ACTS_REF=<commit>] scripts/acts.sh
#       [--adapter express|koa|hapi|fastify|hono|nestjs|all] [--pass default|auth|reduced|all]
#       [--bindings jsonrpc,rest,grpc] [--out DIR] [-- extra acts-runner args, e.g. --filter CORE- --verbose]
#
# The corpus is read from the snapshot at run time (git show; nothing of it is in this repository); the ref defaults
# to dbcabfba4f01cc162c965f0fde5f44fc1f1e70e5. Passes: default (ACTS=1), auth (ITK_ACTS_AUTH=1: the card declares a
# bearer scheme and every operation needs the token), reduced (ITK_ACTS_REDUCED_CAPABILITIES=1: no streaming, push or
# extended card, for the "capability not declared" tests). The runner sends the SUT's valid token
# (itk-valid-token) on abstract operations and offers itk-insufficient-token as {{insufficientAuthToken}}; raw steps
# send only their own headers. Push tests get a receiver on 127.0.0.1 ({{webhookUrl}}). Client tests
# (client_response steps) ride a send_message to the SUT's tck-client-parse behaviour, which answers with what
# @a2a/client parsed. The behaviour contract is acts/sut-behaviors.yaml.
# Prints must/should/may per binding; exit 1 when a MUST test failed anywhere. Not part of .ci/run.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ADAPTERS=express
PASSES=default,auth
BINDINGS=jsonrpc,rest,grpc
OUT=
EXTRA=()
while [ $# -gt 0 ]; do
  case $1 in
    --adapter) ADAPTERS=$2; shift 2 ;;
    --pass) PASSES=$2; shift 2 ;;
    --bindings) BINDINGS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --) shift; EXTRA=("$@"); break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ "$ADAPTERS" = all ] && ADAPTERS=express,koa,hapi,fastify,hono,nestjs
[ "$PASSES" = all ] && PASSES=default,auth,reduced
[ -n "${A2A_ACTS_SNAPSHOT:-}" ] || { echo "A2A_ACTS_SNAPSHOT must point at a git copy of a2aproject/A2A" >&2; exit 2; }
export A2A_ACTS_REF=${A2A_ACTS_REF:-dbcabfba4f01cc162c965f0fde5f44fc1f1e70e5}
OUT=${OUT:-$(mktemp -d -t acts.XXXXXX)}
mkdir -p "$OUT"

PNPM=(npx -y pnpm@10.34.8)
if [ ! -f "$ROOT/apps/tck-sut/dist/main.js" ] || [ ! -f "$ROOT/apps/acts-runner/dist/cli.js" ] || [ -n "${ACTS_BUILD:-}" ]; then
  (cd "$ROOT" && "${PNPM[@]}" turbo run build --filter=@a2a/tck-sut... --filter=@a2a/acts-runner...) || exit 2
fi

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

SUMMARY=()
STATUS=0
for adapter in ${ADAPTERS//,/ }; do
  for pass in ${PASSES//,/ }; do
    port=$(free_port)
    grpc_port=$(free_port)
    env_pass=(ACTS=1)
    [ "$pass" = auth ] && env_pass+=(ITK_ACTS_AUTH=1)
    [ "$pass" = reduced ] && env_pass+=(ITK_ACTS_REDUCED_CAPABILITIES=1)
    log="$OUT/sut-$adapter-$pass.log"
    env "${env_pass[@]}" GRPC_PORT=$grpc_port PORT=$port ADAPTER=$adapter TCK_HEADERLESS_CARD=v1 \
      node "$ROOT/apps/tck-sut/dist/main.js" >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do
      curl -sf "http://127.0.0.1:$port/.well-known/agent-card.json" >/dev/null && break
      sleep 0.2
    done
    out="$OUT/$adapter-$pass"
    node "$ROOT/apps/acts-runner/dist/cli.js" --url "http://127.0.0.1:$port" --bindings "$BINDINGS" \
      --auth-token itk-valid-token --insufficient-token itk-insufficient-token --behaviors "$ROOT/acts/sut-behaviors.yaml" \
      --label "$adapter-$pass" --out "$out" "${EXTRA[@]}" | tee "$out.txt"
    rc=${PIPESTATUS[0]}
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    [ "$rc" -ne 0 ] && STATUS=1
    while read -r line; do SUMMARY+=("$adapter $pass $line"); done < <(
      awk '/^== ACTS/{b=$4} /^  (MUST|SHOULD|MAY):/{printf "%s %s %s %s\n", b, $1, $2, substr($0, index($0,$3))}' "$out.txt" |
        awk '{k=$1; s[k]=s[k] "  " $2 " " $3 " " $4 " " $5 " " $6 " " $7 " " $8} END{for (k in s) print k s[k]}' | sort)
  done
done
echo
echo "ACTS $A2A_ACTS_REF (reports in $OUT):"
printf '  %s\n' "${SUMMARY[@]}"
exit $STATUS
