#!/bin/sh
# hostile_brain.sh: a Gomocup brain whose every answer tries to reach the
# terminal: an ABOUT name and a move line holding escape sequences (a title
# change, a clear screen) and a newline smuggled as text. The managers
# (`match`, `play`) must name it by its file and quote what it sent, with
# no raw control character on their output (tests/cli/cases).
esc=$(printf '\033')
while IFS= read -r line; do
    case $line in
    START*|RECTSTART*) echo OK ;;
    ABOUT) printf 'name="%s]0;pwned\007", version="1"\n' "$esc" ;;
    BEGIN|TURN*|DONE) printf '%s[2J%s[31mpwned\\n 4,4\n' "$esc" "$esc" ;;
    END) exit 0 ;;
    esac
done
