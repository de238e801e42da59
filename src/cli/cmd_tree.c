/* cmd_tree.c: `marubatsu tree`: the full game tree, its scores and the table
 * of best moves by board (spec tree.md), saved or checked as JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mberror.h"
#include "notation.h"
#include "clock.h"
#include "tree.h"
#include "treeview.h"

static const char usage[] =
    "usage: marubatsu tree [options]\n"
    "       marubatsu tree --svg FILE | --dot FILE [--depth D] [--scoring S] [MOVES]\n"
    "Build the full 3x3 game tree (549946 nodes), score it by minimax and take the\n"
    "best moves of every node, then the table of best moves and score by board\n"
    "(5478 boards, the first node of each in creation order). Breadth-first, the\n"
    "series' progress lines come first (\"     9 depth 1 node created\" ... \"total\n"
    "node num = 549946\"); depth-first prints none. Then a summary: nodes per depth\n"
    "list, leaves by result, boards, how many boards have each score, and the\n"
    "root's score and best moves. Scores print as the series does: 1, 0, -1 in the\n"
    "old scheme, 3.0 ... -2.0 (and 0 for draws) in the shortest-victory ones.\n"
    "\n"
    "options:\n"
    "  --order bf|df           build breadth-first (default) or depth-first\n"
    "  --scoring old|sv|sv_rd  old: win 1, loss -1 (default); sv: shortest victory,\n"
    "                          3.0/2.0/1.0 for a win at move 5/7/9, -2.0/-1.0 for a\n"
    "                          loss at move 6/8; sv_rd: sv with the draw rewrite\n"
    "                          (0.5 or -0.5 for a draw that the side to move\n"
    "                          could still lose)\n"
    "  --save FILE             write the table as JSON, {\"KEY\":{\"bestmoves\":[[x,y],\n"
    "                          ...],\"score\":S},...}, as the series' JSON copies\n"
    "  --bestmoves-only        with --save: {\"KEY\":[[x,y],...],...} instead\n"
    "  --check FILE            compare the table with a JSON file of either shape\n"
    "                          (scores too when it has them)\n"
    "  --svg FILE              draw the subtree below the position after MOVES\n"
    "                          (comma-separated Excel squares, \"A1,B2\"; the start\n"
    "                          when none) as SVG: boards as small grids filled by\n"
    "                          score (o wins red, draw grey, x wins blue), the last\n"
    "                          move in yellow, edges labelled with the move, best\n"
    "                          moves thicker, the principal line in dark red\n"
    "  --dot FILE              the same subtree as Graphviz DOT (best moves bold)\n"
    "  --depth D               levels drawn below the position, 0..9 (default 2)\n"
    "                          With --svg or --dot, FILE - is the standard output\n"
    "                          and no summary is printed.\n"
    "  --quiet                 leave out the progress lines\n"
    "  --time                  print the build, scoring and table times on stderr\n"
    "  --help                  show this help\n"
    "\n"
    "With --order df --scoring old, --save writes bestmoves_and_score_by_board.json\n"
    "of the series byte for byte; with the default order, sv and sv_rd give the\n"
    "_shortest_victory and _sv_rd files.\n"
    "\n"
    "exit status: 0 ok, 1 a file that cannot be read or written, is malformed or\n"
    "differs (--check), 2 bad options\n";

enum {
    OPT_ORDER = 1,
    OPT_SCORING,
    OPT_SAVE,
    OPT_BESTMOVES_ONLY,
    OPT_CHECK,
    OPT_QUIET,
    OPT_TIME,
    OPT_TREE_HELP,
    OPT_SVG,
    OPT_DOT,
    OPT_DEPTH
};

typedef struct TreeArgs {
    TreeOrder order;
    Scoring scoring;
    const char *save, *check;
    bool bestmoves_only, quiet, timed;
    const char *svg, *dot, *moves; /* pictures of a subtree (treeview.h) */
    int depth;                     /* -1: not given */
} TreeArgs;

static const char *const scoring_names[] = {"old", "sv", "sv_rd"};

/* Read the options into ta: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, TreeArgs *ta)
{
    static const CliOption opts[] = {
        {.name = "order", .has_arg = true, .id = OPT_ORDER},
        {.name = "scoring", .has_arg = true, .id = OPT_SCORING},
        {.name = "save", .has_arg = true, .id = OPT_SAVE},
        {.name = "bestmoves-only", .has_arg = false, .id = OPT_BESTMOVES_ONLY},
        {.name = "check", .has_arg = true, .id = OPT_CHECK},
        {.name = "quiet", .has_arg = false, .id = OPT_QUIET},
        {.name = "time", .has_arg = false, .id = OPT_TIME},
        {.name = "help", .has_arg = false, .id = OPT_TREE_HELP},
        {.name = "svg", .has_arg = true, .id = OPT_SVG},
        {.name = "dot", .has_arg = true, .id = OPT_DOT},
        {.name = "depth", .has_arg = true, .id = OPT_DEPTH},
        {0}};
    CliArgs a = cli_args(argc, argv);
    const char *arg = NULL;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_TREE_HELP: fputs(usage, stdout); return 0;
        case OPT_ORDER:
            if (strcmp(arg, "bf") != 0 && strcmp(arg, "df") != 0) {
                cli_error(a.cmd, "--order is bf or df, not '%s'", arg);
                return EXIT_USAGE;
            }
            ta->order = arg[0] == 'b' ? TREE_BF : TREE_DF;
            break;
        case OPT_SCORING: {
            int s = 0;
            while (s < 3 && strcmp(arg, scoring_names[s]) != 0) s++;
            if (s == 3) {
                cli_error(a.cmd, "--scoring is old, sv or sv_rd, not '%s'", arg);
                return EXIT_USAGE;
            }
            ta->scoring = (Scoring)s;
            break;
        }
        case OPT_SAVE: ta->save = arg; break;
        case OPT_BESTMOVES_ONLY: ta->bestmoves_only = true; break;
        case OPT_CHECK: ta->check = arg; break;
        case OPT_QUIET: ta->quiet = true; break;
        case OPT_TIME: ta->timed = true; break;
        case OPT_SVG: ta->svg = arg; break;
        case OPT_DOT: ta->dot = arg; break;
        case OPT_DEPTH:
            if (!cli_int(a.cmd, "--depth", arg, 0, TREEVIEW_MAX_DEPTH, &ta->depth))
                return EXIT_USAGE;
            break;
        case CLI_POSITIONAL:
            if (ta->moves) {
                cli_error(a.cmd, "one move list expected; separate moves with commas");
                return EXIT_USAGE;
            }
            ta->moves = arg;
            break;
        default:
            cli_error(a.cmd, "unexpected argument '%s' (see marubatsu tree --help)", arg);
            return EXIT_USAGE;
        }
    }
    if (ta->bestmoves_only && !ta->save) {
        cli_error(a.cmd, "--bestmoves-only goes with --save FILE");
        return EXIT_USAGE;
    }
    bool picture = ta->svg || ta->dot;
    if (!picture && (ta->moves || ta->depth >= 0)) {
        if (ta->moves)
            cli_error(a.cmd, "unexpected argument '%s' (see marubatsu tree --help)", ta->moves);
        else
            cli_error(a.cmd, "--depth goes with --svg FILE or --dot FILE");
        return EXIT_USAGE;
    }
    if (picture && (ta->save || ta->check)) {
        cli_error(a.cmd, "--svg and --dot do not go with --save or --check");
        return EXIT_USAGE;
    }
    if (ta->svg && ta->dot && strcmp(ta->svg, "-") == 0 && strcmp(ta->dot, "-") == 0) {
        cli_error(a.cmd, "--svg and --dot cannot both write to the standard output");
        return EXIT_USAGE;
    }
    return -1;
}


/* The line "board scores: S xN, ..." in ascending score order. */
static void print_score_counts(const TreeTable *table)
{
    int count[256] = {0};
    char s[TREE_SCORE_LEN];
    for (int r = 0; r < table->n; r++) count[table->entry[r].score + 128]++;
    fputs("board scores:", stdout);
    for (int v = 0, first = 1; v < 256; v++) {
        if (!count[v]) continue;
        tree_format_score(v - 128, table->float_scores, s);
        printf("%s %s x%d", first ? "" : ",", s, count[v]);
        first = 0;
    }
    putchar('\n');
}

static void print_summary(const Tree *t, const TreeTable *table, const TreeArgs *ta)
{
    TreeStats st;
    tree_stats(t, &st);
    printf("order %s, scoring %s\n", ta->order == TREE_BF ? "bf" : "df",
           scoring_names[ta->scoring]);
    printf("nodes %d in %d depth lists:", (int)st.nodes, t->ndepths);
    for (int d = 0; d < t->ndepths; d++) printf(" %d", (int)t->depth_count[d]);
    printf("\nleaves %d: o %d, x %d, draw %d\n", (int)st.leaves, (int)st.wins[STATUS_O],
           (int)st.wins[STATUS_X], (int)st.wins[STATUS_DRAW]);
    printf("boards %d: %d unfinished, %d finished\n", (int)st.boards,
           (int)(st.boards - st.finished_boards), (int)st.finished_boards);
    print_score_counts(table);
    char score[TREE_SCORE_LEN];
    tree_format_score(t->node[0].score, table->float_scores, score);
    printf("root score %s, best moves", score);
    int moves[TREE_CELLS], n = tree_mask_moves(t->node[0].best, moves);
    for (int i = 0; i < n; i++) {
        char sq[16];
        notation_excel_format(moves[i] / 3, moves[i] % 3, sq);
        printf("%s%s", i ? "," : " ", sq);
    }
    putchar('\n');
}

/* --save: 0 or 1 after an error. */
static int save_table(const char *cmd, const TreeTable *table, const TreeArgs *ta)
{
    FILE *f = fopen(ta->save, "wb");
    if (!f) {
        cli_error(cmd, "cannot write %s: %s", ta->save, strerror(errno));
        return 1;
    }
    int rc = tree_save_json(table, !ta->bestmoves_only, f);
    if (fclose(f) != 0 || rc != MB_OK) {
        cli_error(cmd, "cannot write %s: %s", ta->save, strerror(errno));
        return 1;
    }
    printf("saved %d boards to %s\n", table->n, ta->save);
    return 0;
}

/* --check: 0 when the file holds the same table, else 1. */
static int check_table(const char *cmd, const TreeTable *table, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error(cmd, "cannot read %s: %s", path, strerror(errno));
        return 1;
    }
    TreeTable other;
    char err[256];
    int rc = tree_table_init(&other);
    if (rc == MB_OK) rc = tree_load_json(&other, f, err, sizeof err);
    fclose(f);
    if (rc != MB_OK) {
        cli_error(cmd, "%s: %s", path, rc == MB_ENOMEM ? mb_strerror(rc) : err);
        tree_table_free(&other);
        return 1;
    }
    char diff[256];
    bool same = tree_table_equal(table, &other, diff, sizeof diff);
    if (same)
        printf("check %s: %d boards, identical%s\n", path, other.n,
               other.has_score ? "" : " best moves (no scores in the file)");
    else
        printf("check %s: differs (computed vs file): %s\n", path, diff);
    tree_table_free(&other);
    return same ? 0 : 1;
}

/* The node after the move list (NULL: the root), or -1 after an error. */
static int32_t find_start(const char *cmd, const Tree *t, const char *list)
{
    if (!list) return 0;
    GameOptions opt = game_default_options();
    Game g;
    if (!cli_make_game(cmd, &opt, &g)) return -1;
    int32_t i = -1;
    if (cli_play_moves(cmd, &g, list, "MOVES")) {
        i = tree_find(t, g.records + 1, g.move_count);
        if (i < 0) cli_error(cmd, "MOVES '%s' is not a position of the game tree", list);
    }
    game_free(&g);
    return i;
}

/* Write one picture (--svg or --dot); 0 or 1 after an error. */
static int write_picture(const char *cmd, const Tree *t, int32_t start, const TreeArgs *ta,
                         const char *path, bool svg)
{
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) {
        cli_error(cmd, "cannot write %s: %s", path, strerror(errno));
        return 1;
    }
    bool float_style = ta->scoring != SCORING_OLD;
    int rc = svg ? treeview_write_svg(t, start, ta->depth, float_style, f)
                 : treeview_write_dot(t, start, ta->depth, float_style, f);
    if ((to_stdout ? fflush(f) : fclose(f)) != 0 || rc != MB_OK) {
        cli_error(cmd, "cannot write %s: %s", path,
                  rc == MB_EINVAL ? mb_strerror(rc) : strerror(errno));
        return 1;
    }
    long long n = (long long)treeview_count(t, start, ta->depth);
    if (!to_stdout) printf("wrote %lld board%s to %s\n", n, n == 1 ? "" : "s", path);
    return 0;
}

/* --svg / --dot: the pictures of the subtree below MOVES. */
static int pictures(const char *cmd, const TreeArgs *ta)
{
    Tree t;
    int rc = tree_build(&t, TREE_DF, NULL);
    if (rc == MB_OK) rc = tree_score(&t, ta->scoring);
    if (rc != MB_OK) {
        cli_error(cmd, "%s", mb_strerror(rc));
        tree_free(&t);
        return 1;
    }
    int status = 0;
    int32_t start = find_start(cmd, &t, ta->moves);
    if (start < 0) status = EXIT_USAGE;
    if (!status && ta->svg) status = write_picture(cmd, &t, start, ta, ta->svg, true);
    if (!status && ta->dot) status = write_picture(cmd, &t, start, ta, ta->dot, false);
    tree_free(&t);
    return status;
}

int cmd_tree(int argc, char **argv)
{
    /* Step 1. options */
    TreeArgs ta = {TREE_BF, SCORING_OLD, NULL, NULL, false, false, false, NULL, NULL, NULL, -1};
    int status = parse_args(argc, argv, &ta);
    if (status >= 0) return status;
    status = 0;
    if (ta.svg || ta.dot) {
        if (ta.depth < 0) ta.depth = 2;
        return pictures(argv[0], &ta);
    }

    /* Step 2. tree, scores and table, timed */
    Tree t;
    TreeTable table = {0};
    double t0 = clock_now();
    int rc = tree_build(&t, ta.order, ta.quiet ? NULL : stdout);
    double t1 = clock_now();
    if (rc == MB_OK) rc = tree_score(&t, ta.scoring);
    double t2 = clock_now();
    if (rc == MB_OK) rc = tree_table_init(&table);
    if (rc == MB_OK) rc = tree_bestmoves_by_board(&t, &table);
    double t3 = clock_now();
    if (rc != MB_OK) {
        cli_error(argv[0], "%s", mb_strerror(rc));
        tree_table_free(&table);
        tree_free(&t);
        return 1;
    }
    if (ta.timed)
        fprintf(stderr, "build %.2f ms, score %.2f ms, table %.2f ms\n", 1e3 * (t1 - t0),
                1e3 * (t2 - t1), 1e3 * (t3 - t2));

    /* Step 3. summary, then the files */
    print_summary(&t, &table, &ta);
    if (ta.save) status = save_table(argv[0], &table, &ta);
    if (!status && ta.check) status = check_table(argv[0], &table, ta.check);
    tree_table_free(&table);
    tree_free(&t);
    return status;
}
