# SPDX-License-Identifier: GPL-2.0-only
# tests/pg_server.sh — a throwaway PostgreSQL server for the tests (source it after lib.sh).
#
#   pg_start           initdb into a fresh folder, start the server on a Unix socket in that folder
#                      and no TCP at all (listen_addresses = ''); stopped and removed on exit. Where
#                      the server binaries are missing, the test is skipped (exit 77) with a visible
#                      message: scripts/setup.sh installs them (postgresql), so CI never skips.
#   pg_db NAME         creates database NAME and prints its URI (no password: trust on the socket)
#   pgq URI SQL        one query's result, unaligned, no header (as lib.sh's q for SQLite files)
#
# initdb and postgres refuse to run as root. As root (CI), the server runs as `nobody` through
# runuser, in a folder outside $T that `nobody` owns; the tests themselves stay root and reach
# the socket (root passes any permission). As anyone else, it runs as that user.
# The server binaries: $PB_PG_BIN if set (only there), else Debian's newest, else $PATH's.
PG_BIN=
if [[ -n ${PB_PG_BIN:-} ]]; then
    [[ -x $PB_PG_BIN/initdb && -x $PB_PG_BIN/pg_ctl && -x $PB_PG_BIN/postgres ]] && PG_BIN=$PB_PG_BIN
else
    for d in /usr/lib/postgresql/*/bin; do
        [[ -x $d/initdb && -x $d/pg_ctl && -x $d/postgres ]] && PG_BIN=$d
    done
    [[ -z $PG_BIN ]] && command -v initdb > /dev/null && command -v pg_ctl > /dev/null &&
        PG_BIN=$(dirname "$(command -v initdb)")
fi
PSQL=$(command -v psql || { [[ -n $PG_BIN && -x $PG_BIN/psql ]] && echo "$PG_BIN/psql"; })
PG_DIR= PG_AS=()

pg_stop() {
    [[ -n $PG_DIR && -d $PG_DIR ]] || return 0
    (cd "$PG_DIR" && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop > /dev/null 2>&1)
    rm -rf "$PG_DIR"
}

pg_skip() {
    echo "SKIP: $* (scripts/setup.sh installs postgresql)"
    exit 77
}

pg_start() {
    [[ -n $PG_BIN ]] || pg_skip "no PostgreSQL server binaries (initdb, pg_ctl, postgres)"
    [[ -n $PSQL ]] || pg_skip "no psql"
    PG_DIR=$(mktemp -d /tmp/pb-pg.XXXXXX) || exit 1
    trap 'pg_stop; rm -rf "$T"' EXIT
    if [[ $(id -u) == 0 ]]; then
        command -v runuser > /dev/null && runuser -u nobody -- true 2> /dev/null ||
            pg_skip "running as root and cannot run the server as nobody (runuser)"
        chmod 755 "$PG_DIR"
        mkdir "$PG_DIR/data" "$PG_DIR/sock"
        chown nobody "$PG_DIR/data" "$PG_DIR/sock"
        PG_AS=(runuser -u nobody --)
    else
        mkdir "$PG_DIR/data" "$PG_DIR/sock"
    fi
    chmod 700 "$PG_DIR/data"
    # the server's user may not be allowed into the test's working folder: start from its own
    cd "$PG_DIR" || exit 1
    if ! "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U pbtest --auth=trust -E UTF8 --locale=C.UTF-8 \
        > "$PG_DIR/initdb.log" 2>&1; then
        echo "FAIL: initdb: $(tail -5 "$PG_DIR/initdb.log")"
        exit 1
    fi
    # fsync off: a throwaway server; the crash semantics tested are the client's (a killed writer)
    if ! "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -w -t 60 -l "$PG_DIR/sock/server.log" \
        -o "-c listen_addresses='' -c unix_socket_directories='$PG_DIR/sock' -c fsync=off -c max_connections=40" \
        start > /dev/null 2>&1; then
        echo "FAIL: pg_ctl start: $(tail -5 "$PG_DIR/sock/server.log")"
        exit 1
    fi
    cd "$OLDPWD" || exit 1
    PG_HOST=$PG_DIR/sock
}

pg_uri() { echo "postgresql://pbtest@/$1?host=$PG_HOST"; }
pg_db() {
    "$PSQL" -X -q -h "$PG_HOST" -U pbtest -d postgres -c "CREATE DATABASE \"$1\"" > /dev/null || exit 1
    pg_uri "$1"
}
pgq() { "$PSQL" -X -q -A -t -d "$1" -c "$2"; }
