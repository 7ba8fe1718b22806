#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on a loopback port, for the PostgreSQL test suites and local
# trials: `cluster.sh start DIR PORT` prints the URL of its `postgres` database; `cluster.sh stop DIR`.
# initdb and pg_ctl refuse to run as root, so they run as the `postgres` user; trust auth is
# granted on 127.0.0.1 only and the server listens nowhere else.
set -euo pipefail
BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
action="${1:?start|stop}"
dir="${2:?cluster folder}"

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    port="${3:?port}"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_postgres "$BIN/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
      printf 'host all all 127.0.0.1/32 trust\n' >"$dir/pg_hba.conf.new"
      as_postgres cp "$dir/pg_hba.conf.new" "$dir/pg_hba.conf"
      rm -f "$dir/pg_hba.conf.new"
    fi
    as_postgres "$BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='' -c fsync=off -c max_connections=200" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -f "$dir/postmaster.pid" ] && as_postgres "$BIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true
    ;;
  *) echo "usage: cluster.sh start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
