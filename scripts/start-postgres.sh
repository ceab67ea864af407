#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 for tests and demos. Idempotent: a running cluster is reused.
#   scripts/start-postgres.sh [start|stop|restart|url]
# Prints the connection URL on stdout (logs go to stderr) and writes it to $A2A_PG_STATE/url.
# Installs Debian's `postgresql` when no server binaries exist; runs the server as a non-root user
# (`postgres` when started as root); data lives in a temp dir recorded in $A2A_PG_STATE/data-dir.
set -euo pipefail

STATE=${A2A_PG_STATE:-${TMPDIR:-/tmp}/a2a-postgres}
CMD=${1:-start}
log() { echo "[start-postgres] $*" >&2; }

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
PG_BIN=$(find_bin)
if [ -z "$PG_BIN" ]; then
  log "installing postgresql from Debian packages"
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >&2
  PG_BIN=$(find_bin)
fi
[ -n "$PG_BIN" ] || { log "no PostgreSQL server binaries found"; exit 1; }

if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  RUN_AS=postgres
else
  RUN_AS=$(id -un)
fi
as_user() {
  if [ "$(id -un)" = "$RUN_AS" ]; then "$@"; else runuser -u "$RUN_AS" -- "$@"; fi
}

mkdir -p "$STATE"
chown "$RUN_AS" "$STATE" 2>/dev/null || true

url() { cat "$STATE/url"; }
running() { [ -f "$STATE/data-dir" ] && as_user "$PG_BIN/pg_ctl" -D "$(cat "$STATE/data-dir")" status >/dev/null 2>&1; }

start() {
  if running && [ -f "$STATE/url" ]; then url; return; fi
  if [ ! -f "$STATE/data-dir" ] || [ ! -d "$(cat "$STATE/data-dir")" ]; then
    local data
    data=$(mktemp -d "${TMPDIR:-/tmp}/a2a-pgdata.XXXXXX")
    chown "$RUN_AS" "$data"
    log "initdb in $data"
    as_user "$PG_BIN/initdb" -D "$data" -U a2a --auth=trust --encoding=UTF8 --no-sync >&2
    echo "$data" >"$STATE/data-dir"
    # A free port, chosen once: restarts keep the same URL.
    node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})' >"$STATE/port"
  fi
  local data port
  data=$(cat "$STATE/data-dir")
  port=$(cat "$STATE/port")
  as_user "$PG_BIN/pg_ctl" -D "$data" -l "$data/server.log" -w -t 30 \
    -o "-h 127.0.0.1 -p $port -k $data -c max_connections=200" start >&2
  echo "postgresql://a2a@127.0.0.1:$port/postgres" >"$STATE/url"
  log "PostgreSQL is up at $(url)"
  url
}

stop() {
  if running; then as_user "$PG_BIN/pg_ctl" -D "$(cat "$STATE/data-dir")" -m "${A2A_PG_STOP_MODE:-fast}" -w stop >&2; fi
}

case "$CMD" in
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  url) url ;;
  *) log "usage: $0 [start|stop|restart|url]"; exit 2 ;;
esac
