#!/bin/sh
# tests/cli/commands.sh: the program's one command table reaches every
# place that lists the commands. The names printed by --commands must be
# exactly those of --help's command rows, of the short usage (after an
# unknown command), of the man page's SYNOPSIS (.B marubatsu NAME lines)
# and of what the bash completion (--completion) offers; each option the
# SYNOPSIS shows for a command must be one that command's --help lists.
# Last, the comparison runs on a made-up man page that lacks a command and
# shows an option no command has, which it must reject (so it can fail).
# Prints "N passed, N failed".
# Usage: sh tests/cli/commands.sh PROGRAM
set -u
prog=$1
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok $1"; }
# same NAME FILE1 FILE2: the two sorted lists are equal
same() {
    if diff -u "$2" "$3" >"$tmp/diff"; then ok "$1"; else not_ok "$1"; cat "$tmp/diff"; fi
}

"$prog" --commands | sort >"$tmp/commands"
[ "$(wc -l <"$tmp/commands")" -ge 12 ] && ok "--commands lists 12 or more commands" ||
    not_ok "--commands lists 12 or more commands (got $(wc -l <"$tmp/commands"))"

"$prog" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z]*\) .*/\1/p' | sort -u \
    >"$tmp/help"
same "--help's command rows are the table's" "$tmp/commands" "$tmp/help"

"$prog" no-such-command 2>&1 >/dev/null | sed -n '/^commands:/,/^(/p' | tr ',' '\n' |
    sed -e 's/^commands://' -e 's/(marubatsu.*//' | tr -d ' ' | grep . | sort >"$tmp/short"
same "the short usage lists the table's commands" "$tmp/commands" "$tmp/short"

# man_commands MANPAGE: the commands of its SYNOPSIS
man_commands() {
    sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$1" | sed -n 's/^\.B marubatsu \([a-z]*\)$/\1/p' |
        sort -u
}
man_commands docs/marubatsu.1 >"$tmp/man"
same "the man page's SYNOPSIS shows the table's commands" "$tmp/commands" "$tmp/man"

# bad_options MANPAGE: "command --option" for each option its SYNOPSIS
# shows that the command's --help does not list (board and sandbox
# options are checked against match, which has both)
bad_options() {
    sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$1" | awk '
        /^\.B marubatsu [a-z]+$/ { cmd = $3; next }
        /^\.B marubatsu$/ { cmd = ""; next }
        /^\.(br|PP)/ { if ($0 ~ /PP/) cmd = "match"; next }
        cmd != "" {
            line = $0
            gsub(/\\-/, "-", line)
            while (match(line, /--[a-z][a-z0-9-]*/)) {
                print cmd, substr(line, RSTART, RLENGTH)
                line = substr(line, RSTART + RLENGTH)
            }
        }' | sort -u | while read -r cmd opt; do
        "$prog" "$cmd" --help 2>&1 | grep -q -- "$opt\\b" || echo "$cmd $opt"
    done
}
bad_options docs/marubatsu.1 >"$tmp/bad"
[ ! -s "$tmp/bad" ] && ok "every option in the SYNOPSIS is in its command's --help" ||
    { not_ok "options in the SYNOPSIS that the command does not have:"; cat "$tmp/bad"; }

"$prog" --completion >"$tmp/completion.bash"
while read -r c; do
    start=$(printf '%s' "$c" | cut -c1-3)
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" "$3"); COMP_CWORD=1; _marubatsu
        printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/completion.bash" "$prog" "$start")
    printf '%s\n' "$got" | grep -qx "$c" && ok "completion: '$start' offers $c" ||
        not_ok "completion: '$start' offers $c (got: $got)"
done <"$tmp/commands"
got=$(bash -c '. "$1"; COMP_WORDS=("$2" tournament --gam); COMP_CWORD=2; _marubatsu
    printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/completion.bash" "$prog")
printf '%s\n' "$got" | grep -qx -- --games && ok "completion: tournament --gam offers --games" ||
    not_ok "completion: tournament --gam offers --games (got: $got)"

# the checks themselves, on a made-up man page: one command missing, one
# option that its command does not have
sed -e '/^\.B marubatsu brain$/,/^\.br$/d' \
    -e 's/^\.B marubatsu merge$/&\n[\\fB\\-\\-frobnicate\\fR]/' docs/marubatsu.1 >"$tmp/bad.1"
man_commands "$tmp/bad.1" >"$tmp/man_bad"
cmp -s "$tmp/commands" "$tmp/man_bad" && not_ok "a SYNOPSIS without brain is rejected" ||
    ok "a SYNOPSIS without brain is rejected"
bad_options "$tmp/bad.1" | grep -qx 'merge --frobnicate' &&
    ok "an option merge does not have is found" || not_ok "an option merge does not have is found"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
