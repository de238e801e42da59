/* cmd_tournament.c: `marubatsu tournament PLAYER...` and `marubatsu merge
 * DIR...`: the options are checked here, the work is mb.tournament_main and
 * mb.tournament_merge_main (scripts/lib/tournament.lua). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mberror.h"

static const char usage[] =
    "usage: marubatsu [options] tournament PLAYER PLAYER... [options]\n"
    "Play every pairing of the players (or the first against each other with\n"
    "--format gauntlet), both colours, in pairs of games from the same opening,\n"
    "and print the crosstable, scores, Elo with 95% intervals, the likelihood of\n"
    "superiority and game-pair (pentanomial) statistics.\n"
    "\n"
    "A PLAYER is an AI name (ai2, ai14s, ...), a Lua script file (run in the\n"
    "sandbox: budgets per move, forfeits with their reason) or a Gomocup brain\n"
    "(brain:COMMAND), with parameters: NAME:key=value,key=value (so ai14s:w=2\n"
    "is another player). Three keys are player options, not the AI's:\n"
    "  name=TEXT               the name shown and written (default: an AI's spec,\n"
    "                          a script's file name without .lua, a brain's\n"
    "                          ABOUT name)\n"
    "  tc=S[+INC], st=S        the player's own time control (a game clock, a\n"
    "                          move time), replacing the tournament's\n"
    "e.g. gomoku:st=1,name=G or my_ai.lua:depth=3 (docs/journal.md).\n"
    "\n"
    "options:\n"
    "  --games N               games per pairing, even (default 100)\n"
    "  --seed S                master seed (default 1); every game's seed comes\n"
    "                          from it, the pairing and the game's index\n"
    "  --jobs J                worker processes (default: the number of cores)\n"
    "  --format F              round_robin (default), gauntlet or knockout (single\n"
    "                          elimination, seeded in the order given: --games\n"
    "                          per match, the more points go on; a tie plays\n"
    "                          --tiebreak N more pairs (default 1), one at a\n"
    "                          time, then the better seed goes on)\n"
    "  --openings FILE         one opening per line (\"B2,A1\"), or Gomocup's\n"
    "                          relative format (\"0,0, 1,0\": offsets dx,dy from\n"
    "                          the centre); pair i uses opening i, cycling\n"
    "  --openings-order ORDER  sequential (the file's order, the default) or\n"
    "                          random (shuffled by --seed)\n"
    "  --openings-plies N      play only the first N moves of each opening\n"
    "  --out DIR               write journal.tsv (one line per game, as they end),\n"
    "                          results.json, results.csv, ranking.svg,\n"
    "                          report.html, games.sgf (every game, SGF GM[4])\n"
    "                          and with k=5 games/NNNNN.psq (Piskvork) there\n"
    "  --resume                continue the journal in --out (same players and\n"
    "                          options): the results equal an uninterrupted run's\n"
    "  --sprt elo0=E0,elo1=E1,alpha=A,beta=B\n"
    "                          two players: stop when the SPRT decides\n"
    "  --shard I/N             play only games I, I+N, I+2N, ... of the schedule\n"
    "                          (combine the shards' --out with 'marubatsu merge')\n"
    "  --adjudicate            end a game as soon as its result is proven: by the\n"
    "                          exact solver once at most 12 squares are empty,\n"
    "                          else when the side to move wins by continuous\n"
    "                          fours (VCF); the journal says so\n"
    "  --max-moves N           a game with N stones on the board is a draw\n"
    "  --move-time S           time control: at most S seconds per move\n"
    "  --game-time S[+INC]     time control: a clock of S seconds per player and\n"
    "                          game, INC seconds added after each of its moves;\n"
    "                          with either, every player (built-in, script or\n"
    "                          brain) is timed, loses on time past its limit,\n"
    "                          and its AI sees params.timelimit and time_left\n"
    "                          (docs/lua-api.md 5.12)\n" CLI_BUDGET_HELP CLI_SLACK_HELP
    "  --no-sandbox            run script files trusted (faster; only your own)\n"
    "  --allow-forfeits        play players that fail the pre-flight (below): each\n"
    "                          of their games is a forfeit with the reason\n"
    "  --progress MODE         the progress on stderr: bar (one line rewritten in\n"
    "                          place, as wide as the terminal, with the time\n"
    "                          left), lines (a line per finished game, for a\n"
    "                          log: Finished game 17 (ai4 vs ai2): 0-1 {three in\n"
    "                          a row}) or none; default bar when stderr is a\n"
    "                          terminal, lines otherwise\n"
    "  --no-progress           the same as --progress none\n"
    "  --verbose               the lines of --progress lines also over the bar\n"
    "  --rating-interval N     the standings on stderr every N finished games\n"
    "  --quiet                 print nothing (the files in --out still appear)\n" CLI_BOARD_HELP
    "\n"
    "Before the first game every player is checked once (the pre-flight): a\n"
    "script must load and return an AI, a built-in AI's rule must accept the\n"
    "board, a Gomocup brain must start and answer OK to START on the board.\n"
    "A player that fails stops the run before any game, with exit status 2 and\n"
    "one line naming it and the reason.\n"
    "\n"
    "The journal format is in docs/journal.md; 'marubatsu replay JOURNAL N'\n"
    "shows game N. Results do not depend on --jobs.\n"
    "\n"
    "Ctrl-C stops the run: the results of the games played so far are printed,\n"
    "marked partial, and --resume continues it.\n"
    "\n"
    "exit status: 0 done, 1 an error (unreadable or unwritable files, a full\n"
    "disk, a journal of another tournament or one whose game lines the schedule\n"
    "or the board contradicts, named by file:line), 2 bad options or players\n"
    "(an unknown AI, a missing script, an unknown parameter, a name too long\n"
    "for a journal, a player that fails the pre-flight), 130 stopped by Ctrl-C.\n";

static const char merge_usage[] =
    "usage: marubatsu [options] merge DIR... [--out DIR] [--quiet]\n"
    "Combine the journals (DIR/journal.tsv) of the shards of one tournament and\n"
    "print the results, as one run would. With --out, write the merged\n"
    "journal.tsv, results.json, results.csv and ranking.svg there; --quiet\n"
    "prints nothing.\n";

enum {
    OPT_GAMES = 1,
    OPT_SEED,
    OPT_JOBS,
    OPT_FORMAT,
    OPT_OPENINGS,
    OPT_OUT,
    OPT_RESUME,
    OPT_SPRT,
    OPT_SHARD,
    OPT_NO_PROGRESS,
    OPT_PROGRESS,
    OPT_QUIET,
    OPT_SLACK,
    OPT_ALLOW_FORFEITS,
    OPT_VERBOSE,
    OPT_RATING_INTERVAL,
    OPT_TIEBREAK,
    OPT_ADJUDICATE,
    OPT_MAX_MOVES,
    OPT_OPENINGS_ORDER,
    OPT_OPENINGS_PLIES
};

/* Append word to the buffer b (of cap bytes, used so far) as the shell
 * reads it back: as it is when it holds only safe characters, else in
 * single quotes (a quote inside written '\''). false when it does not fit. */
static bool shell_word(char *b, size_t cap, size_t *used, const char *word)
{
    bool plain = *word != '\0';
    for (const char *c = word; *c; c++)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+@%-", *c))
            plain = false;
    size_t need = strlen(word) * 4 + 4;
    if (*used + need >= cap) return false;
    char *at = b + *used;
    if (*used) *at++ = ' ';
    if (plain) {
        at += sprintf(at, "%s", word);
    } else {
        *at++ = '\'';
        for (const char *c = word; *c; c++) {
            if (*c == '\'') {
                memcpy(at, "'\\''", 4);
                at += 4;
            } else {
                *at++ = *c;
            }
        }
        *at++ = '\'';
        *at = '\0';
    }
    *used = (size_t)(at - b);
    return true;
}

/* The command that resumes this run, shell-quoted, into b: the program's
 * own command line (/proc/self/cmdline: global options such as -I kept)
 * with --resume added unless it is there; from the command's words when
 * /proc cannot be read. */
static void resume_command(char *b, size_t cap, int argc, char **argv)
{
    size_t used = 0;
    bool resume = false;
    b[0] = '\0';
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (f) {
        static char raw[16384];
        size_t n = fread(raw, 1, sizeof raw - 1, f);
        fclose(f);
        raw[n] = '\0';
        if (n > 0 && n < sizeof raw - 1) {
            for (size_t i = 0; i < n; i += strlen(raw + i) + 1) {
                if (strcmp(raw + i, "--resume") == 0) resume = true;
                if (!shell_word(b, cap, &used, raw + i)) break;
            }
        }
    }
    if (used == 0) {
        resume = false;
        shell_word(b, cap, &used, "marubatsu");
        for (int i = 0; i < argc; i++) {
            if (strcmp(argv[i], "--resume") == 0) resume = true;
            if (!shell_word(b, cap, &used, argv[i])) break;
        }
    }
    if (!resume) shell_word(b, cap, &used, "--resume");
}

/* Call mb.FUNCTION with the options in p and key = the n words joined by
 * newlines (player specs, directories); the exit status. */
static int call_with_list(Host *h, const char *function, CliPairs *p, const char *key, char **words,
                          int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(words[i]) + 1;
    char *list = malloc(len), *at = list;
    if (!list) return 1;
    for (int i = 0; i < n; i++) at += sprintf(at, "%s\n", words[i]);
    *at = '\0';
    cli_put(p, key, list);
    host_catch_interrupts(h, true);
    int rc = host_call_table(h, function, p->keys, p->values, p->n);
    free(list);
    return rc;
}

/* The options: those with a key go to mb.tournament_main as they are
 * (checked by cli_take), the others are read below. */
static const CliOption options[] = {
    CLI_BOARD_OPTIONS,
    {"games", true, OPT_GAMES, "games", CLI_EVEN, 2, 1000000000, NULL},
    {"seed", true, OPT_SEED, "seed", CLI_SEED, 0, 0, NULL},
    {"jobs", true, OPT_JOBS, "jobs", CLI_INT, 1, 256, NULL},
    {"format", true, OPT_FORMAT, "format", CLI_CHOICE, 0, 0, "round_robin|gauntlet|knockout"},
    {"openings", true, OPT_OPENINGS, "openings", CLI_TEXT, 0, 0, NULL},
    {"openings-order", true, OPT_OPENINGS_ORDER, "openings_order", CLI_CHOICE, 0, 0,
     "sequential|random"},
    {"openings-plies", true, OPT_OPENINGS_PLIES, "openings_plies", CLI_INT, 1, 1024, NULL},
    {"out", true, OPT_OUT, "out", CLI_TEXT, 0, 0, NULL},
    {"resume", false, OPT_RESUME, "resume", CLI_FLAG, 0, 0, NULL},
    {"sprt", true, OPT_SPRT, "sprt", CLI_TEXT, 0, 0, NULL},
    {"shard", true, OPT_SHARD, NULL, CLI_TEXT, 0, 0, NULL},
    {"slack", true, OPT_SLACK, "slack", CLI_SECONDS, 0, 0, NULL},
    {"allow-forfeits", false, OPT_ALLOW_FORFEITS, "allow_forfeits", CLI_FLAG, 0, 0, NULL},
    {"verbose", false, OPT_VERBOSE, "verbose", CLI_FLAG, 0, 0, NULL},
    {"rating-interval", true, OPT_RATING_INTERVAL, "rating_interval", CLI_INT, 1, 1000000000, NULL},
    {"tiebreak", true, OPT_TIEBREAK, "tiebreak", CLI_INT, 0, 1000, NULL},
    {"adjudicate", false, OPT_ADJUDICATE, "adjudicate", CLI_FLAG, 0, 0, NULL},
    {"max-moves", true, OPT_MAX_MOVES, "max_moves", CLI_INT, 1, 1024, NULL},
    CLI_PLAYER_OPTIONS,
    {"no-progress", false, OPT_NO_PROGRESS, "progress", CLI_FLAG, 0, 0, "none"},
    {"progress", true, OPT_PROGRESS, NULL, CLI_TEXT, 0, 0, NULL},
    {"quiet", false, OPT_QUIET, "quiet", CLI_FLAG, 0, 0, NULL},
    {0}};

/* --shard I/N; false after the error. */
static bool shard_option(const char *cmd, const char *arg)
{
    int i = 0, of = 0, used = 0;
    if (sscanf(arg, "%d/%d%n", &i, &of, &used) != 2 || arg[used] || of < 1 || i < 1 || i > of) {
        cli_error(cmd, "--shard must be I/N with 1 <= I <= N, not '%s'", arg);
        return false;
    }
    return true;
}

int cmd_tournament(int argc, char **argv, Host *h)
{
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    CliPairs p = {0};
    char **players = calloc((size_t)argc + 1, sizeof *players);
    int nplayers = 0, rc = EXIT_USAGE;
    bool board_set = false, openings = false, arranged = false;
    const char *arg = NULL;
    if (!players) return 1;
    /* 1. the options and the players */
    for (int id; (id = cli_next(&a, options, &arg)) != CLI_END;) {
        int taken = cli_take(&a, options, id, arg, &p);
        if (taken < 0) goto out;
        openings = openings || id == OPT_OPENINGS;
        arranged = arranged || id == OPT_OPENINGS_ORDER || id == OPT_OPENINGS_PLIES;
        if (taken) continue;
        switch (id) {
        case CLI_ERROR: goto out;
        case OPT_HELP:
            fputs(usage, stdout);
            rc = 0;
            goto out;
        case OPT_SHARD:
            if (!shard_option(a.cmd, arg)) goto out;
            cli_put(&p, "shard", arg);
            break;
        case OPT_PROGRESS:
            if (!cli_progress(a.cmd, arg, &p)) goto out;
            break;
        case CLI_POSITIONAL: players[nplayers++] = (char *)arg; break;
        default: {
            if (!cli_board_option(a.cmd, id, arg, &opt)) goto out;
            if (id == OPT_BOARD) board_set = true;
            break;
        }
        }
    }
    /* 2. what the options need of each other */
    if (arranged && !openings) {
        cli_error(a.cmd, "--openings-order and --openings-plies need --openings FILE");
        goto out;
    }
    if (nplayers < 2) {
        cli_error(
            a.cmd,
            "two or more players are needed, e.g. marubatsu tournament ai2 ai14s (see --help)");
        goto out;
    }
    CliBoardText board;
    if (!cli_put_board(a.cmd, &opt, board_set, &board, &p)) goto out;
    /* 3. the run, told how to resume itself */
    static char resume[32768];
    resume_command(resume, sizeof resume, argc, argv);
    cli_put(&p, "resume_command", resume);
    rc = call_with_list(h, "tournament_main", &p, "players", players, nplayers);
out:
    free(players);
    return rc;
}

int cmd_merge(int argc, char **argv, Host *h)
{
    static const CliOption opts[] = {{.name = "out", .has_arg = true, .id = OPT_OUT},
                                     {.name = "quiet", .has_arg = false, .id = OPT_QUIET},
                                     {.name = "help", .has_arg = false, .id = OPT_HELP},
                                     {0}};
    CliArgs a = cli_args(argc, argv);
    CliPairs p = {0};
    char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    int ndirs = 0, rc = EXIT_USAGE;
    const char *arg = NULL;
    if (!dirs) return 1;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        switch (id) {
        case CLI_ERROR: goto out;
        case OPT_HELP:
            fputs(merge_usage, stdout);
            rc = 0;
            goto out;
        case OPT_OUT: cli_put(&p, "out", arg); break;
        case OPT_QUIET: cli_put(&p, "quiet", "1"); break;
        default: dirs[ndirs++] = (char *)arg; break;
        }
    }
    if (ndirs < 1) {
        cli_error(a.cmd, "one or more tournament directories are needed (see --help)");
        goto out;
    }
    rc = call_with_list(h, "tournament_merge_main", &p, "dirs", dirs, ndirs);
out:
    free(dirs);
    return rc;
}
