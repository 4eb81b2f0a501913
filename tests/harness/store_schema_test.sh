#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A store whose tables do not match its schema version (issue 21, item 3): a table, a view or a
# column dropped or renamed by hand under a right user_version. Every command that opens a store
# refuses it at the open with exit 2, "PATH: store does not match schema version N: " and the
# store's own words; none crashes, none writes the store or leaves a file behind.
# Fixed data only: one seeded synthetic run, damaged with sqlite3.
BENCH=$1
source "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

"$BENCH" run --suite synthetic --quick --quiet --rounds 6 --seed 1 --db clean.db >/dev/null 2>&1 || { echo "FAIL: seeded run"; exit 1; }
cat >kmod.txt <<'EOF'
pbk1 meta target=import
pbk1 selftest impl=kmod-old status=pass detail=4-vectors
pbk1 selftest impl=kmod-new status=pass detail=4-vectors
pbk1 sample suite=xts impl=kmod-old variant=256 op=enc size=4096 round=0 iters=8 ns=16000
pbk1 sample suite=xts impl=kmod-new variant=256 op=enc size=4096 round=0 iters=8 ns=8000
pbk1 end
EOF

# damage NAME SQL WORDS: a copy of the clean store with SQL applied; WORDS is what SQLite says of it
names=() words=()
damage() {
    mkdir -p "stores/$1"
    cp clean.db "stores/$1/bench.db"
    sqlite3 "stores/$1/bench.db" "$2" || { bad "$1: sqlite3 could not apply '$2'"; return; }
    names+=("$1")
    words+=("$3")
}
damage no-samples "DROP TABLE samples" "no such table: samples"
damage no-stats "DROP TABLE stats" "no such table: stats"
damage no-gate-table "DROP TABLE comparison_cells" "no such table: comparison_cells"
damage no-summary-view "DROP VIEW summary" "no such table: summary"
damage no-summary-ratios-view "DROP VIEW summary_ratios" "no such table: summary_ratios"
damage no-objects-table "DROP TABLE objects" "no such table: objects"
damage no-func-counts-table "DROP TABLE func_counts" "no such table: func_counts"
damage column-dropped "ALTER TABLE ratios DROP COLUMN per_layout" "no such column: per_layout"
damage user-column-dropped "ALTER TABLE runs DROP COLUMN build_parity" "no such column: build_parity"
damage column-renamed "ALTER TABLE cases RENAME COLUMN impl TO implementation" "no such column: impl"
damage view-redefined "DROP VIEW summary; CREATE VIEW summary AS SELECT id AS run_id FROM runs" "no such column: suite"
# a view in place of a table reads alike, but a writer's insert would fail half-way through a run
damage samples-a-view "PRAGMA foreign_keys = OFF; ALTER TABLE samples RENAME TO s0; CREATE VIEW samples AS SELECT * FROM s0" \
    "table samples is there but not as a table"

# every command that opens a store, with arguments it would otherwise accept; DB is the store,
# run in an empty folder w (its outputs go there, so that what it leaves is seen)
commands=(
    "run --suite synthetic --quick --quiet --rounds 2 --db DB"
    "import ../kmod.txt --db DB"
    "report --db DB --out plots"
    "report --html --db DB --out page.html"
    "report --machines all --db DB --out plots"
    "export --format csv --db DB --out x.csv"
    "export --format json --db DB"
    "export --format gbench --db DB"
    "history --suite synthetic --db DB --out plots"
    "list --runs --db DB"
    "compare --suite synthetic --run 1 --db DB"
    "gate --suite synthetic --quick --db DB"
    "gate --baseline-runs 1,2,3,4,5,6 --candidate-runs 7,8,9,10,11,12 --db DB"
    "merge DB --into dest.db"
    "merge ../clean.db --into DB"
    "migrate --db DB"
)

for i in "${!names[@]}"; do
    n=${names[$i]} db=$T/stores/${names[$i]}/bench.db
    before=$(sha256sum <"$db")
    for c in "${commands[@]}"; do
        rm -rf w && mkdir w
        read -ra argv <<<"${c//DB/$db}"
        out=$(cd w && "$BENCH" "${argv[@]}" 2>&1)
        rc=$?
        what="$n: bench $c"
        if ((rc >= 128)); then bad "$what: crashed (exit $rc): $out"; continue; fi
        [[ $rc -eq 2 ]] && ok || bad "$what: exit $rc, want 2: $out"
        [[ $out == *"$db: store does not match schema version 11: ${words[$i]}"* ]] && ok ||
            bad "$what: lacks '$db: store does not match schema version 11: ${words[$i]}': $out"
        left=$(find w -mindepth 1 -print -quit)
        [[ -z $left ]] && ok || bad "$what: left $left behind"
    done
    is "$n: the store is left as it was" "$(sha256sum <"$db")" "$before"
    left=$(find "stores/$n" -mindepth 1 ! -name bench.db -print -quit)
    [[ -z $left ]] && ok || bad "$n: left $left beside the store"
done

# an older store with a table missing is refused before a migration touches it, one with a
# column missing after it, in the one transaction that is then rolled back: version and file kept
cp clean.db v3.db
sqlite3 v3.db "ALTER TABLE samples DROP COLUMN layout; PRAGMA user_version = 3; DROP TABLE stats"
before=$(sha256sum <v3.db)
expect 2 "v3.db: store does not match schema version 3: no such table: stats" "$BENCH" migrate --db v3.db
is "v3 without stats: unchanged" "$(sha256sum <v3.db)" "$before"
cp clean.db v3.db
sqlite3 v3.db "ALTER TABLE samples DROP COLUMN layout; ALTER TABLE runs DROP COLUMN hostname; PRAGMA user_version = 3"
before=$(sha256sum <v3.db)
expect 2 "v3.db: store does not match schema version 3 (migrated to 11, not kept): no such column: hostname" \
    "$BENCH" run --suite synthetic --quick --quiet --rounds 2 --db v3.db
is "v3 without runs.hostname: unchanged" "$(sha256sum <v3.db)" "$before"
is "v3 without runs.hostname: still version 3" "$(q v3.db "PRAGMA user_version")" "3"

# a version no bench writes (user_version is a signed 32-bit number): refused in words, exit 2
cp clean.db neg.db
sqlite3 neg.db "PRAGMA user_version = -1"
for c in "list --runs" "migrate" "run --suite synthetic --quick --quiet --rounds 2"; do
    read -ra argv <<<"$c"
    expect 2 "neg.db has schema version '-1', which no bench writes" "$BENCH" "${argv[@]}" --db neg.db
done

# the clean store still opens for every reader (the check asks for nothing the schema lacks)
expect 0 "" "$BENCH" list --runs --db clean.db
expect 0 "" "$BENCH" export --format csv --db clean.db
expect 0 "schema version 11" "$BENCH" migrate --db clean.db

finish
