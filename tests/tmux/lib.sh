# tests/tmux/lib.sh: what the tmux tests that drive a program in panes of
# a private tmux server share (sourced, after they set $sock):
#   T ARGS...            tmux on the private server, no user config
#   cleanup              kill that server (run at exit; Ctrl-C exits 130)
#   check NAME STATUS [DETAIL]   count and print one check ("ok NAME" or
#                        "FAIL NAME: DETAIL") from a command's status
#   wait_until COMMAND... poll every 0.1 s until COMMAND succeeds, at most
#                        ${WAIT_TENTHS:-300} tenths of a second
# and the counters pass and fail for the summary line.
pass=0
fail=0

T() { tmux -u -L "$sock" -f /dev/null "$@"; }
cleanup() { T kill-server >/dev/null 2>&1; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

check() {
    if [ "$2" -eq 0 ]; then
        pass=$((pass + 1))
        echo "ok $1"
    else
        fail=$((fail + 1))
        echo "FAIL $1${3:+: $3}"
    fi
}

wait_until() {
    i=0
    while [ $i -lt "${WAIT_TENTHS:-300}" ]; do
        "$@" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
