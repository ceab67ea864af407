#!/usr/bin/env bash
# A throwaway Redis on 127.0.0.1 for tests and demos. Idempotent: a running server is reused.
#   scripts/start-redis.sh [start|stop|restart|url]
# Prints the URL on stdout (logs go to stderr) and writes it to $A2A_REDIS_STATE/url.
# Installs Debian's `redis-server` when neither redis-server nor valkey-server exists (needs root). Data (an
# append-only file, fsync every second, as the README recommends) lives in a temp dir recorded in
# $A2A_REDIS_STATE/data-dir; the port is chosen once, so restarts keep the same URL. A2A_REDIS_SERVER names the binary
# (e.g. /usr/bin/valkey-server, with another A2A_REDIS_STATE: .ci/run starts Valkey beside Redis this way).
set -euo pipefail

STATE=${A2A_REDIS_STATE:-${TMPDIR:-/tmp}/a2a-redis}
CMD=${1:-start}
log() { echo "[start-redis] $*" >&2; }

find_bin() { if [ -n "${A2A_REDIS_SERVER:-}" ]; then command -v "$A2A_REDIS_SERVER" || true; else command -v redis-server || command -v valkey-server || true; fi; }
BIN=$(find_bin)
if [ -z "$BIN" ]; then
  log "installing redis-server from Debian packages"
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server >&2
  BIN=$(find_bin)
fi
[ -n "$BIN" ] || { log "no redis-server binary found"; exit 1; }
CLI=$(command -v redis-cli || command -v valkey-cli || true)

mkdir -p "$STATE"

url() { cat "$STATE/url"; }
pid() { cat "$STATE/data-dir" >/dev/null 2>&1 && cat "$(cat "$STATE/data-dir")/redis.pid" 2>/dev/null; }
running() { local p; p=$(pid) && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

start() {
  if running && [ -f "$STATE/url" ]; then url; return; fi
  if [ ! -f "$STATE/data-dir" ] || [ ! -d "$(cat "$STATE/data-dir")" ]; then
    mktemp -d "${TMPDIR:-/tmp}/a2a-redisdata.XXXXXX" >"$STATE/data-dir"
    node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})' >"$STATE/port"
  fi
  local data port
  data=$(cat "$STATE/data-dir")
  port=$(cat "$STATE/port")
  "$BIN" --port "$port" --bind 127.0.0.1 --dir "$data" --daemonize yes --pidfile "$data/redis.pid" \
    --logfile "$data/server.log" --appendonly yes --appendfsync everysec --save '' >&2
  for _ in $(seq 1 100); do
    if [ -n "$CLI" ] && "$CLI" -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then break; fi
    if [ -z "$CLI" ] && running; then sleep 0.2; break; fi
    sleep 0.1
  done
  echo "redis://127.0.0.1:$port" >"$STATE/url"
  log "$("$BIN" --version | head -n 1) is up at $(url)"
  url
}

stop() {
  if running; then
    local p
    p=$(pid)
    kill "$p"
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  fi
}

case "$CMD" in
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  url) url ;;
  *) log "usage: $0 [start|stop|restart|url]"; exit 2 ;;
esac
