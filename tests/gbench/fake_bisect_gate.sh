#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fake_bisect_gate.sh gate ... --new DIR/BINARY ...: a stand-in for `bench gate` in bench bisect's
# steps, whose verdict is fixed by the commit under test: the file `verdict` of the checkout --new
# lives in holds the exit status (0 pass, 1 regression, 3 inconclusive, or "sleep": wait to be
# killed). Each call appends the checkout's verdict to $FAKE_GATE_LOG; the document printed is
# $FAKE_GATE_DOC (a real gate's JSON), so that the answer renders as a real one does.
new=
while [[ $# -gt 0 ]]; do
    [[ $1 == --new ]] && new=$2
    shift
done
v=$(cat "$(dirname "$new")/verdict")
echo "$v" >>"$FAKE_GATE_LOG"
if [[ $v == sleep ]]; then
    sleep 60
    exit 2
fi
cat "$FAKE_GATE_DOC"
exit "$v"
