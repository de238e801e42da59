# results_csv.awk: the reading of a tournament's results.csv that the bench
# scripts share (ladder.sh, sprt_switches.sh). Each line is split into
# f[1..n], the commas inside a quoted field turned into semicolons (a
# player's name such as gomoku:a=1,b=2 is one quoted field), and the header
# line gives col[NAME], the column of NAME. A script's own rules come in a
# second -f file and see the lines after the header.
{
    line = ""; q = 0
    for (i = 1; i <= length($0); i++) {
        c = substr($0, i, 1)
        if (c == "\"") { q = !q; continue }
        line = line (c == "," && q ? ";" : c)
    }
    n = split(line, f, ",")
}
NR == 1 { for (i = 1; i <= n; i++) col[f[i]] = i; next }
