#!/usr/bin/env bash
# A throwaway Redis Cluster on 127.0.0.1 for @a2a/redis's cluster tests: 3 masters, by default no replicas.
# Idempotent: a running, healthy cluster is reused; nodes that died are started again (they rejoin from nodes.conf:
# a master that lost its slots to its replica comes back as that replica's replica).
#   scripts/start-redis-cluster.sh [start|stop|url]
# Prints the seed URL (the first node) on stdout (logs go to stderr) and writes it to $A2A_REDIS_CLUSTER_STATE/url.
# Ports: $A2A_REDIS_CLUSTER_PORT (default 27000) and the next ones; each node's cluster bus is its port + 10000.
# A2A_REDIS_CLUSTER_REPLICAS=1: one replica per master (6 nodes; the failover tests' cluster,
# A2A_TEST_REDIS_REPLICA_CLUSTER_URL). A2A_REDIS_CLUSTER_NODE_TIMEOUT: cluster-node-timeout in ms (default 2000, and
# 1000 with replicas: a replica takes over about two to three timeouts after its master died).
# A2A_REDIS_SERVER names the binary (redis-server by default, or valkey-server); the matching CLI creates the cluster.
set -euo pipefail

STATE=${A2A_REDIS_CLUSTER_STATE:-${TMPDIR:-/tmp}/a2a-redis-cluster}
FIRST=${A2A_REDIS_CLUSTER_PORT:-27000}
REPLICAS=${A2A_REDIS_CLUSTER_REPLICAS:-0}
NODE_TIMEOUT=${A2A_REDIS_CLUSTER_NODE_TIMEOUT:-$([ "$REPLICAS" = 1 ] && echo 1000 || echo 2000)}
case "$REPLICAS" in 0 | 1) ;; *) echo "[start-redis-cluster] A2A_REDIS_CLUSTER_REPLICAS must be 0 or 1" >&2; exit 2 ;; esac
PORTS=()
for i in $(seq 0 $((3 * (REPLICAS + 1) - 1))); do PORTS+=("$((FIRST + i))"); done
CMD=${1:-start}
log() { echo "[start-redis-cluster] $*" >&2; }

if [ -n "${A2A_REDIS_SERVER:-}" ]; then BIN=$(command -v "$A2A_REDIS_SERVER" || true); else BIN=$(command -v redis-server || command -v valkey-server || true); fi
[ -n "$BIN" ] || { log "no redis-server binary (scripts/start-redis.sh installs one)"; exit 1; }
case "$(basename "$BIN")" in
  valkey-server) CLI=$(command -v valkey-cli || command -v redis-cli || true) ;;
  *) CLI=$(command -v redis-cli || command -v valkey-cli || true) ;;
esac
[ -n "$CLI" ] || { log "no redis-cli next to $BIN"; exit 1; }

cli() { "$CLI" -h 127.0.0.1 -p "$1" "${@:2}"; }
# Every node up, in a cluster of all of them, and serving every slot.
healthy() {
  local port info
  for port in "${PORTS[@]}"; do
    info=$(cli "$port" cluster info 2>/dev/null | tr -d '\r') || return 1
    grep -q '^cluster_state:ok$' <<<"$info" && grep -q "^cluster_known_nodes:${#PORTS[@]}\$" <<<"$info" || return 1
  done
}
url() { cat "$STATE/url"; }

start() {
  mkdir -p "$STATE"
  if healthy && [ -f "$STATE/url" ]; then url; return; fi
  local port dir
  for port in "${PORTS[@]}"; do
    dir="$STATE/$port"
    mkdir -p "$dir"
    if ! cli "$port" ping 2>/dev/null | grep -q PONG; then
      "$BIN" --port "$port" --bind 127.0.0.1 --dir "$dir" --daemonize yes --pidfile "$dir/redis.pid" \
        --logfile "$dir/server.log" --cluster-enabled yes --cluster-config-file "$dir/nodes.conf" \
        --cluster-node-timeout "$NODE_TIMEOUT" --appendonly yes --appendfsync everysec --save '' >&2
    fi
  done
  for port in "${PORTS[@]}"; do
    for _ in $(seq 1 100); do cli "$port" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
  done
  # A fresh set of nodes (no slots assigned yet) is made a cluster; nodes that already form one (a restart) rejoin.
  if cli "${PORTS[0]}" cluster info | tr -d '\r' | grep -q '^cluster_slots_assigned:0$'; then
    local nodes=()
    for port in "${PORTS[@]}"; do nodes+=("127.0.0.1:$port"); done
    "$CLI" --cluster create "${nodes[@]}" --cluster-replicas "$REPLICAS" --cluster-yes >&2
  fi
  for _ in $(seq 1 200); do healthy && break; sleep 0.1; done
  healthy || { log "the cluster did not reach cluster_state:ok"; exit 1; }
  echo "redis://127.0.0.1:${PORTS[0]}" >"$STATE/url"
  log "$("$BIN" --version | head -n 1): a ${#PORTS[@]}-node cluster (3 masters, $REPLICAS replica(s) each) is up at 127.0.0.1:${PORTS[0]}-${PORTS[-1]}"
  url
}

stop() {
  local port p
  for port in "${PORTS[@]}"; do
    p=$(cat "$STATE/$port/redis.pid" 2>/dev/null || true)
    if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
      kill "$p"
      for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    fi
  done
}

case "$CMD" in
  start) start ;;
  stop) stop ;;
  url) url ;;
  *) log "usage: $0 [start|stop|url]"; exit 2 ;;
esac
