"""tests/jupyter/notebooks_test.py: the example notebooks (examples/*.ipynb)
run headless with nbclient on the `marubatsu` kernel, no cell failing, and
their outputs checked, cell by cell (found by their tags):

- series.ipynb: SVG boards with the REPL's text; the ladder of AIs against
  ai2 (ai14s never loses); the seeded match tables equal to the series'
  numbers (ai2 VS ai2 and ai14s VS ai2 after seed 0, 50,000 pairs each: the
  numbers of tests/lua/match_spec.lua and tests/cli/golden/match_golden.out);
  the benchmark αβ call with the Lua ai14s as evaluator (1,175 nodes,
  score 0); the search with the notebook's own evaluator; the game tree
  picture; the tournament's ranking equal to `marubatsu tournament` with the
  same players and seed (its results.json); an object drawing itself,
  between two prints in order;
- gomoku.ipynb: a 15x15 game drawn with move numbers, a VCF found and
  played to a win, the gauntlet's tables.

Usage: python3 notebooks_test.py PROGRAM. Prints "ok NAME" or "FAIL NAME:
why" per check."""
import json
import os
import re
import subprocess
import sys
import tempfile

import nbformat
from nbclient import NotebookClient

PROGRAM = sys.argv[1]
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
failures = 0


def check(name, cond, why=""):
    global failures
    if cond:
        print("ok " + name)
    else:
        failures += 1
        print("FAIL %s: %s" % (name, why))


def run(name):
    path = os.path.join(ROOT, "examples", name)
    nb = nbformat.read(path, as_version=4)
    try:
        NotebookClient(nb, kernel_name="marubatsu", timeout=1200, startup_timeout=120,
                       resources={"metadata": {"path": os.path.dirname(path)}}).execute()
        check(name + ":runs", True)
    except Exception as e:  # CellExecutionError: a cell failed
        check(name + ":runs", False, str(e)[-2000:])
    cells = {}
    for c in nb.cells:
        for tag in c.metadata.get("tags", []):
            cells.setdefault(tag, []).append(c.get("outputs", []))
    return cells


def data(outputs, mime, kind=None):
    for o in outputs:
        if o.output_type in ("execute_result", "display_data") and (kind is None or o.output_type == kind):
            if mime in o.data:
                return o.data[mime]
    return None


def streams(outputs):
    return "".join(o.text for o in outputs if o.output_type == "stream")


def td_numbers(html):
    return [int(x) for x in re.findall(r"<td>(\d+)</td>", html or "")]


def ranking_rows(html):
    """(name, win, loss, draw) of each ranking row of a results table."""
    return [(m[0], int(m[2]), int(m[3]), int(m[4])) for m in
            re.findall(r"<tr><td>\d+</td><th>([^<]+)</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>",
                       html or "")]


# ---- series.ipynb -------------------------------------------------------------
s = run("series.ipynb")
boards = s.get("board", [])
check("series:boards_svg", len(boards) == 2 and all((data(o, "image/svg+xml") or "").startswith("<svg")
                                                    for o in boards), repr(boards)[:300])
check("series:board_text", boards and data(boards[0], "text/plain") == "Turn o\nX..\n.o.\n...",
      repr(boards[:1])[:300])
check("series:winning_line", len(boards) > 1 and 'stroke="#d00"' in (data(boards[1], "image/svg+xml") or "")
      and data(boards[1], "text/plain").startswith("winner o"), repr(boards[1:])[:300])
ladder = data(s.get("ladder", [[]])[0], "text/html") or ""
rows = re.findall(r"<tr><th>(\w+)</th><td>([\d.]+)%</td><td>([\d.]+)%</td><td>([\d.]+)%</td></tr>", ladder)
check("series:ladder", len(rows) == 9 and rows[-1][0] == "ai14s" and rows[-1][2] == "0.0", repr(rows))
m2 = data(s.get("match_ai2", [[]])[0], "text/html")
check("series:match_table_ai2", td_numbers(m2) == [29454, 14352, 6194, 14208, 29592, 6200, 43662, 43944, 12394]
      and "58.9%" in m2 and "ai2 VS ai2" in m2, repr(m2)[:400])
m14 = data(s.get("match_ai14s", [[]])[0], "text/html")
check("series:match_table_ai14s", td_numbers(m14) == [49446, 0, 554, 44043, 0, 5957, 93489, 0, 6511],
      repr(m14)[:400])
bench = [o.data["text/plain"] for o in s.get("bench", [[]])[0] if o.output_type != "stream"]
check("series:alphabeta_lua_eval", bench == ["1175", "0.0"], repr(bench))
search = data(s.get("search", [[]])[0], "text/plain") or ""
check("series:own_evaluator", search.startswith("candidate: B2\nscores:    B1 2.0,"), repr(search))
tree = data(s.get("tree", [[]])[0], "image/svg+xml") or ""
check("series:tree_picture", tree.startswith("<svg") and tree.count('<g class="board"') == 8, tree[:200])
tour = data(s.get("tournament", [[]])[0], "text/html") or ""
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([PROGRAM, "tournament", "ai1", "ai2", "ai4", "ai14s", "--games", "200", "--seed", "1", "--quiet",
                    "--out", tmp + "/out"], check=True, timeout=600, capture_output=True)
    with open(tmp + "/out/results.json") as f:
        cli = [(r["name"], r["win"], r["loss"], r["draw"]) for r in json.load(f)["ranking"]]
check("series:tournament_table", ranking_rows(tour) == cli and tour.count("<table") == 2 and "<svg" in tour
      and "crosstable" in tour, "%r != %r" % (ranking_rows(tour), cli))
bars = s.get("bars", [[]])[0]
kinds = [o.output_type for o in bars]
check("series:object_draws_itself", kinds == ["stream", "display_data", "stream"]
      and (data(bars, "image/svg+xml") or "").count("<rect") == 4, repr(kinds))

# ---- gomoku.ipynb ---------------------------------------------------------------
g = run("gomoku.ipynb")
game = g.get("game", [[]])[0]
svg = data(game, "image/svg+xml") or ""
moves = re.search(r"after (\d+) moves", streams(game))
check("gomoku:game_svg", svg.startswith("<svg") and moves and svg.count("<circle") == int(moves.group(1))
      and "gomoku (black) vs ai14s (white)" in svg, streams(game) + svg[:300])
board = data(g.get("board", [[]])[0], "image/svg+xml") or ""
check("gomoku:board_svg", board.startswith("<svg") and ">O<" in board and ">15<" in board, board[:300])
vcf = g.get("vcf_position", [[]])[0]
check("gomoku:vcf", re.match(r"[ox] to move wins by( [A-O]\d+){5,}", streams(vcf)) is not None
      and (data(vcf, "image/svg+xml") or "").startswith("<svg"), streams(vcf))
end = data(g.get("vcf_end", [[]])[0], "text/plain") or ""
check("gomoku:vcf_wins", end.startswith("winner "), end[:40])
gt = data(g.get("tournament", [[]])[0], "text/html") or ""
rows = ranking_rows(gt)
check("gomoku:tournament_table", gt.count("<table") == 2 and len(rows) == 3
      and sum(r[1] + r[2] + r[3] for r in rows) == 8, repr(rows))
sys.exit(1 if failures else 0)
