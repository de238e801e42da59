# tests/brain/contain.sh: hostile brains against their box (src/brainproc_box.c),
# each a tournament player written in a few lines (tests/brain/hostile.sh,
# tests/brain/alloc_brain.c). Sourced by tests/brain/run.sh, which counts.
# Checks:
#   - a brain that starts a process in a session of its own (setsid) that
#     loops for ever: after the tournament no process with its mark is left;
#   - a brain that kill -9s its parent and the tournament (--jobs 1): the
#     tournament finishes and the brain loses every game (its own exit 3);
#   - a brain that appends forged game lines to every descriptor of its
#     parent and of the tournament (/proc/PID/fd/N) and to the journal by
#     its path, and makes a file in --out: the journal holds exactly the
#     games played, no file is made, --resume accepts the journal as it is;
#   - a brain that leaves a process spinning: while its opponent (a brain
#     that sleeps 1 s a move) is to move, the spinner gets no CPU (under
#     0.25 s in a game, against 4 to 5 s of the opponent's turns: what is
#     left is the moments between its answer and its stop, and its
#     continue and its reading the command, 1 or 2 ticks a move at a load
#     of 8 on 2 cores), and with ponder=1 it runs (0.25 s or more; 0.9 to
#     1.4 s at that load);
#   - a brain that sends 100,000 MESSAGE lines a move and as many lines to
#     stderr: its log holds at most 256 MESSAGE lines or 32 KiB of them and
#     64 KiB of stderr a game, and one note a game for each that the rest
#     was dropped;
#   - a brain that takes all the memory INFO max_memory tells it and touches
#     every page (as Rapfi does for its hash table) plays every game under
#     the default memory limit (its first move may take long: touching
#     768 MiB took 12 s on a loaded 2-core VM);
#   - no process of any of these brains is left at the end.
# The kill and journal checks need the namespace box: where namespaces are
# refused (group mode, also forced by MARUBATSU_BRAIN_ISOLATION=group) they
# are skipped with a note, and the others run as well in group mode. Run as
# root, the escape, kill and journal checks run again as nobody (setpriv),
# where the box is made in a user namespace.
# The brains and --out directories are outside /tmp: a box has a private
# /tmp, where they would not be found (and a write refused there would
# prove nothing). Every tournament runs under `timeout`, and every brain
# has 10 s a move: a loaded machine must not turn a check into a time loss.

box=$(mktemp -d "$(cd "$(dirname "$prog")" && pwd)/brain-box.XXXXXX")
trap 'rm -rf "$tmp" "$box"' EXIT
export MB_PIDFILE="$box/pid"
hz=$(getconf CLK_TCK)

as_user="" # a command prefix: run as another user
# ctour ARGS...: a 9x9 tournament with --jobs 1, its pid written to $MB_PIDFILE first
ctour() {
    timeout 300 $as_user sh -c 'echo $$ >"$0"; exec "$@"' "$MB_PIDFILE" \
        "$prog" tournament --width 9 --height 9 --k 5 --jobs 1 --no-progress --quiet "$@"
}
# reasons DIR: the games' "winner|reason" pairs, sorted, one line
reasons() { grep '^G' "$1/journal.tsv" | cut -f 9,10 | sort -u | tr '\t\n' '| '; }

# contain LABEL: the checks, in the isolation the environment gives
contain() {
    label=$1
    iso=$($as_user "$prog" -e 'local h = require "marubatsu.host" print((h.brainproc.isolation()))')
    mark="escape-run$$-$label"
    ctour "brain:$here/hostile.sh escape $mark:timeout_turn=10000" ai1 --games 2 --out "$box/esc-$label" >/dev/null 2>&1
    check "[$label] escape: both games played" test "$(grep -c '^G' "$box/esc-$label/journal.tsv")" -eq 2
    left=$(pgrep -f "$mark")
    check "[$label] escape: no process of the brain left (setsid grandchild)" test -z "$left"
    if [ -n "$left" ]; then pkill -9 -f "$mark"; fi

    if [ "$iso" = namespace ]; then
        ctour "brain:$here/hostile.sh killer run$$:timeout_turn=10000" ai1 --games 2 --out "$box/kill-$label" >/dev/null 2>&1
        check "[$label] killer: the tournament finishes" test $? -eq 0
        got=$(reasons "$box/kill-$label")
        check "[$label] killer: the brain loses every game ($got)" \
            test "$got" = "o|crash: exit status 3 x|crash: exit status 3 "

        export MB_OUT="$box/jour-$label"
        ctour "brain:$here/hostile.sh journal run$$:timeout_turn=10000" ai1 --games 2 --out "$box/jour-$label" >/dev/null 2>&1
        check "[$label] journal: the tournament finishes" test $? -eq 0
        check "[$label] journal: no forged line" test "$(grep -c forged "$box/jour-$label/journal.tsv")" -eq 0
        got=$(reasons "$box/jour-$label")
        check "[$label] journal: the games as played ($got)" \
            test "$got" = "o|crash: exit status 3 x|crash: exit status 3 "
        check "[$label] journal: no file made in --out" test ! -e "$box/jour-$label/owned"
        cp "$box/jour-$label/journal.tsv" "$box/jour.before"
        ctour "brain:$here/hostile.sh journal run$$:timeout_turn=10000" ai1 --games 2 --out "$box/jour-$label" --resume >/dev/null 2>&1
        check "[$label] journal: --resume accepts it" test $? -eq 0
        check "[$label] journal: unchanged by --resume" cmp -s "$box/jour.before" "$box/jour-$label/journal.tsv"
    else
        echo "note: [$label] kill and journal checks skipped: brains run in $iso mode here, without namespaces"
    fi
    if [ "$label" = user ]; then return; fi

    rm -f "$box/spin.log"
    ctour "brain:$here/hostile.sh spin run$$:timeout_turn=10000,log=$box/spin.log" "brain:$here/hostile.sh sleepy run$$:timeout_turn=10000" \
        --games 2 --out "$box/spin-$label" >/dev/null 2>&1
    ticks=$(sed -n 's/^MESSAGE away //p' "$box/spin.log" | sort -n | tail -n 1)
    check "[$label] spin: reported" test -n "$ticks"
    check "[$label] spin: no CPU while its opponent moves ($ticks ticks of 1/$hz s)" \
        test "${ticks:-9999}" -lt $((hz / 4))
    if [ "$label" = auto ]; then
        rm -f "$box/spin.log"
        ctour "brain:$here/hostile.sh spin run$$:timeout_turn=10000,ponder=1,log=$box/spin.log" \
            "brain:$here/hostile.sh sleepy run$$:timeout_turn=10000" --games 2 --out "$box/ponder" >/dev/null 2>&1
        ticks=$(sed -n 's/^MESSAGE away //p' "$box/spin.log" | sort -n | tail -n 1)
        check "[$label] spin, ponder=1: it runs ($ticks ticks of 1/$hz s)" test "${ticks:-0}" -ge $((hz / 4))
    fi

    rm -f "$box/flood.log"
    ctour "brain:$here/hostile.sh flood run$$:timeout_turn=30000,log=$box/flood.log" ai1 --games 2 \
        --out "$box/flood-$label" >/dev/null 2>&1
    got=$(reasons "$box/flood-$label")
    check "[$label] flood: games played to their end ($got)" test "$got" = "o| "
    check "[$label] flood: log capped ($(wc -c <"$box/flood.log") bytes)" \
        test "$(wc -c <"$box/flood.log")" -le $((2 * (32 * 1024 + 64 * 1024 + 400)))
    check "[$label] flood: one note a game for MESSAGE lines" \
        test "$(grep -c 'MESSAGE and DEBUG in this game: the rest is dropped' "$box/flood.log")" -eq 2
    check "[$label] flood: one note a game for stderr" \
        test "$(grep -c "the rest of this brain's stderr in this game is dropped" "$box/flood.log")" -eq 2

    ctour "brain:$box/alloc_brain:timeout_turn=120000" ai1 --games 2 --out "$box/alloc-$label" >/dev/null 2>&1
    got=$(reasons "$box/alloc-$label")
    check "[$label] max_memory taken in full: every game played under the defaults ($got)" \
        test "$got" = "o| "

    check "[$label] no process of these brains left" test -z "$(pgrep -f "hostile.sh .*run$$")"
}

if cc -O2 -o "$box/alloc_brain" "$here/alloc_brain.c"; then
    contain auto
    export MARUBATSU_BRAIN_ISOLATION=group
    contain group
    unset MARUBATSU_BRAIN_ISOLATION
    # as root, the first checks again as nobody: the box in a user namespace
    if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
        as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
        chmod 777 "$box"
        rm -f "$MB_PIDFILE"
        if $as_user sh -c '[ -r "$1" ] && [ -w "$2" ] && "$3" -e ""' sh "$here/hostile.sh" "$box" "$prog" \
            2>/dev/null; then
            contain user
        else
            echo "note: [user] skipped: nobody cannot run $prog or read $here here"
        fi
        as_user=""
    fi
else
    fail=$((fail + 1))
    echo "not ok: cannot compile $here/alloc_brain.c"
fi
