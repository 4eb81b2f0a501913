# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# ci/lib.sh — what ci/claim-gate, ci/perf-gate and ci/gbench-gate share (source it): the options
# that say where their one document goes (docs/gate-outputs.md), checked before anything is built
# or timed, and the joining of their suites' documents into one (bench gate --merge).
#
# The scripts gate one suite a bench command, each command's document saved as JSON in a folder of
# their own; at the end `bench gate --merge` makes them one document, written as --format says
# (standard output), into every --write file, and as --annotate says. Progress (and, unless the
# format is text, each suite's own table) goes to stderr, so that standard output holds the one
# document and nothing else.

# The bench commands' output reaches the terminal through pipes, where bench sees no width of its
# own: the terminal's width, when one is there and COLUMNS does not already say it, is passed on,
# so that their tables and lines fit it as bench's own do (docs/gate-outputs.md).
if [[ -z ${COLUMNS:-} ]] && { [[ -t 1 ]] || [[ -t 2 ]]; }; then
    COLUMNS=$(tput cols 2>/dev/null) && [[ $COLUMNS =~ ^[0-9]+$ ]] && export COLUMNS || unset COLUMNS
fi

PB_FORMAT=text PB_ANNOTATE='' PB_THRESHOLD=''
PB_OUTS=()          # --write F=FILE (or its old spelling --out), as given
PB_MERGE_ARGS=()    # --skipped / --error for suites that left no document
PB_DOCS=()          # the suites' documents, in order
PB_TOKEN=           # --annotate github with text: the ::stop-commands:: token

# pb_output_opt NAME VALUE: 0 if NAME is one of --format, --write (--out), --annotate, --threshold (taken)
pb_output_opt() {
    case $1 in
    --format) PB_FORMAT=$2 ;;
    --write|--out) PB_OUTS+=("$1" "$2") ;;   # --out: the old spelling of --write
    --annotate) PB_ANNOTATE=$2 ;;
    --threshold) PB_THRESHOLD=$2 ;;
    *) return 1 ;;
    esac
}

# pb_check_threshold SCRIPT: --threshold a percentage (0% < P <= 100%, as bench reads it: 3% or a
# bare 3), else exit 2
pb_check_threshold() {
    [[ -z $PB_THRESHOLD ]] && return 0
    if ! [[ $PB_THRESHOLD =~ ^[0-9]+([.][0-9]+)?%?$ ]] ||
        ! awk -v p="${PB_THRESHOLD%\%}" 'BEGIN { exit !(p > 0 && p <= 100) }'; then
        echo "$1: --threshold '$PB_THRESHOLD': want a percentage more than 0% and at most 100% (e.g. 3%, 2.5% or 3, which is 3%)" >&2
        exit 2
    fi
}

# pb_check_outputs SCRIPT BENCH: bench's own check of --format, --write and --annotate (nothing is
# written), else exit 2
pb_check_outputs() {
    "$2" gate --merge --check --format "$PB_FORMAT" "${PB_OUTS[@]}" ${PB_ANNOTATE:+--annotate "$PB_ANNOTATE"} ||
        { echo "$1: bad output options (above)" >&2; exit 2; }
}

# pb_outputs_check SCRIPT BENCH: both
pb_outputs_check() {
    pb_check_threshold "$1"
    pb_check_outputs "$1" "$2"
}

# pb_say LINE...: a progress line, and pb_show TEXT a suite's own table: on fd 4, which
# pb_doc_begin points at stdout for text, else at stderr
pb_say() { pb_wrap "$*" >&4; }

# pb_wrap TEXT: TEXT wrapped at spaces to pb_width (further lines indented by two spaces), as
# bench's own sentences are; whole where there is no width
pb_wrap() {
    local w line='' word words
    w=$(pb_width)
    if (( w <= 0 || ${#1} <= w )); then printf '%s\n' "$1"; return; fi
    read -ra words <<<"$1"
    for word in "${words[@]}"; do
        if [[ -n $line ]] && (( ${#line} + 1 + ${#word} > w )); then
            printf '%s\n' "$line"
            line="  $word"
        else
            line=${line:+$line }$word
        fi
    done
    [[ -n $line ]] && printf '%s\n' "$line"
    return 0
}
pb_show() { printf '%s\n' "$1" >&4; }

# pb_step SCRIPT I N WHAT T0: before step I of N (a suite) starts, on stderr: what runs, and the
# time left if the steps still to run take as long as those so far did each (T0: SECONDS at the
# first step's start). The line fits the terminal's width.
pb_step() {
    local spent=$((SECONDS - $5)) line
    if (( $2 > 1 )); then
        line="$1: $4 ($2 of $3): $(pb_duration "$spent") so far, about $(pb_duration $((spent * ($3 - $2 + 1) / ($2 - 1)))) left"
    else
        line="$1: $4 ($2 of $3)"
    fi
    pb_fit "$line" >&2
}

# pb_duration S: "47 s", "3 min 20 s", as bench's progress says a duration (ticker.h)
pb_duration() {
    if (( $1 < 100 )); then printf '%d s\n' "$1"; else printf '%d min %02d s\n' $(($1 / 60)) $(($1 % 60)); fi
}

# pb_width: the columns of stderr's lines as bench takes them (term.h): COLUMNS, else the
# terminal's when stderr is one, else 0 (unbounded)
pb_width() {
    local w=${COLUMNS:-}
    [[ -z $w && -t 2 ]] && w=$(stty size <&2 2>/dev/null | cut -d' ' -f2)
    [[ $w =~ ^[0-9]+$ ]] && printf '%s\n' "$w" || echo 0
}

# pb_fit LINE: LINE cut to pb_width (its progress lines are plain text)
pb_fit() {
    local w
    w=$(pb_width)
    if (( w > 0 && ${#1} > w )); then printf '%s\n' "${1:0:w-1}…"; else printf '%s\n' "$1"; fi
}

# pb_live [FILE]: a bench's stderr (stdin), its live progress lines (bench --live; ticker.h) on
# stderr as they come, cut to the width, the other lines into FILE, or onto stdout without one.
# bench writes them as plain lines (its stderr is this pipe), one every few seconds; where it says
# nothing for 4 s, a line of its own ("$PB_LIVE_WHAT: still at work, N s").
pb_live() {
    local line w t0=$SECONDS said=$SECONDS rc part=
    w=$(pb_width)
    [[ -n ${1:-} ]] && : >"$1"
    while true; do
        IFS= read -r -t 1 line
        rc=$?
        if (( rc > 128 )); then
            part+=$line   # a line cut by the time-out: its start, until its end comes
            # no line for a while: between bench's runs (a gate's statistics, its next look) it says
            # nothing, so a line every 4 s says the gate is still at work
            if (( SECONDS - said >= 4 )); then
                pb_fit "${PB_LIVE_WHAT:-bench}: still at work, $((SECONDS - t0)) s" >&2
                said=$SECONDS
            fi
            continue
        fi
        line=$part$line part=''
        (( rc == 0 )) || [[ -n $line ]] || break
        case $line in
        "bench: measuring "* | "bench: make-up rounds "* | "bench: boundary rounds "*)
            if (( w > 0 && ${#line} > w )); then line="${line:0:w-1}…"; fi
            printf '%s\n' "$line" >&2
            said=$SECONDS ;;
        *) if [[ -n ${1:-} ]]; then printf '%s\n' "$line" >>"$1"; else printf '%s\n' "$line"; fi ;;
        esac
        (( rc == 0 )) || break
    done
    return 0
}

# pb_threshold_args: --threshold P (as given) for bench gate, one word a line, when one was given
pb_threshold_args() {
    [[ -n $PB_THRESHOLD ]] && printf '%s\n' --threshold "$PB_THRESHOLD"
    return 0
}

# pb_doc_begin: fd 4 for what people read as the gates run, the folder for the suites' documents
# (removed on exit), and with --annotate github and text, commands paused while names from the
# store are printed
pb_doc_begin() {
    if [[ $PB_FORMAT == text ]]; then exec 4>&1; else exec 4>&2; fi
    PB_DOC_DIR=$(mktemp -d) || { echo "mktemp failed" >&2; exit 2; }
    trap 'rm -rf "$PB_DOC_DIR"' EXIT
    if [[ $PB_ANNOTATE == github && $PB_FORMAT == text ]]; then
        PB_TOKEN=patchbench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
        echo "::stop-commands::$PB_TOKEN"
    fi
}

# pb_doc SUITE: the path of the next suite's document
pb_doc() { printf '%s/%03d-%s.json\n' "$PB_DOC_DIR" "${#PB_DOCS[@]}" "$1"; }

# pb_doc_done SUITE PATH RC WHAT: the suite's document kept, or, when its bench left none, the
# suite named as skipped (RC skip) or as an error with WHAT
pb_doc_done() {
    local suite=$1 path=$2 rc=$3 what=$4
    if [[ -s $path ]]; then PB_DOCS+=("$path")
    elif [[ $rc == skip ]]; then PB_MERGE_ARGS+=(--skipped "$suite=$what")
    else PB_MERGE_ARGS+=(--error "$suite=$what"); fi
}

# pb_doc_finish BENCH STATUS: the one document on stdout (and annotations, --write files); sets
# PB_STATUS: STATUS, unless writing the outputs failed (then bench's)
pb_doc_finish() {
    local bench=$1 rc=0
    PB_STATUS=$2
    if [[ -n $PB_TOKEN ]]; then echo "::$PB_TOKEN::"; fi
    "$bench" gate --merge "${PB_DOCS[@]}" "${PB_MERGE_ARGS[@]}" --format "$PB_FORMAT" --brief "${PB_OUTS[@]}" \
        ${PB_ANNOTATE:+--annotate "$PB_ANNOTATE"} || rc=$?
    # the same verdict (the scripts' order: regression, error, inconclusive); another status is an
    # output that could not be written (1) or a refused document (2)
    if [[ $PB_STATUS -ne 1 && $rc -ne 0 && $rc -ne 3 && $rc -ne $PB_STATUS ]]; then PB_STATUS=$rc; fi
}
