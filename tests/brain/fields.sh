#!/bin/sh
# tests/brain/fields.sh: `marubatsu brain` answers a BOARD command by the
# field of each stone as the Gomocup protocol has it: field 2 (the
# opponent's stone) gets a move; field 1 alone (our own stone, with no
# opponent's: not a position of alternate moves), field 3 (a continuous
# game, which marubatsu does not play) and fields 0 and 4 (not in the
# protocol) each get their own ERROR line. Prints "N passed, N failed".
# Usage: sh tests/brain/fields.sh PROGRAM
set -u
prog=$1
pass=0
fail=0
# check FIELD EXPECTED: the answer to a one-stone BOARD with that field
check() {
    got=$(printf 'START 15\r\nBOARD\r\n7,7,%s\r\nDONE\r\nEND\r\n' "$1" |
        timeout 60 "$prog" brain ai1 2>&1 | tr -d '\r' | sed -n 2p)
    if [ "$got" = "$2" ]; then
        pass=$((pass + 1))
        echo "ok field $1"
    else
        fail=$((fail + 1))
        echo "not ok field $1: got '$got', expected '$2'"
    fi
}
check 1 "ERROR BOARD: 1 own and 0 opponent stones: not a position of alternate moves"
check 2 "0,0"
check 3 "ERROR BOARD: field 3 (continuous game) is not supported"
check 4 "ERROR BOARD: BOARD line: the field must be 1, 2 or 3"
check 0 "ERROR BOARD: BOARD line: the field must be 1, 2 or 3"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
