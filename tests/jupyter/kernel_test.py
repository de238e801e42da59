"""tests/jupyter/kernel_test.py: the `marubatsu` Jupyter kernel through the
Jupyter protocol (jupyter_client), one kernel for the whole run:

- values are shown as the REPL prints them (the same text as `marubatsu`
  fed the same lines), `_`, statements show nothing, print is streamed
  while the cell runs, output and pictures keep their order;
- errors come with the message and a traceback (runtime, syntax, a broken
  __repr_html), the REPL's environment is there (help, reload, AIs found by
  MARUBATSU_PATH), input boxes answer io.read;
- rich display: a game as SVG with the REPL's text, display() and the
  __repr_* protocol, jupyter.board / jupyter.tree, a match table and a
  tournament's results as HTML tables;
- completion and inspection (the REPL's completion, help's entries);
- the interrupt stops a Lua loop and the next cell has the earlier
  variables, an interrupt between cells or as a cell ends harms nothing,
  an interrupt while an input box waits ends the cell;
- a killed or exiting engine is restarted with a clear message, and no
  process is left after the kernel shuts down;
- the init file and MARUBATSU_KERNEL_ARGS reach the engine (-E skips the
  init file), and an engine that cannot start says why.

Usage: python3 kernel_test.py PROGRAM (the kernelspec `marubatsu` must run
PROGRAM: tests/jupyter/run.sh makes one). Prints "ok NAME" or "FAIL NAME:
why" per check."""
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Kernel, stream_text, text_of  # noqa: E402

PROGRAM = sys.argv[1]
failures = 0


def check(name, cond, why=""):
    global failures
    if cond:
        print("ok " + name)
    else:
        failures += 1
        print("FAIL %s: %s" % (name, why))


def repl_text(lines):
    """What `marubatsu` prints for these lines fed on stdin."""
    out = subprocess.run([PROGRAM, "-E"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         timeout=60)
    return out.stdout


k = Kernel()
try:
    # ---- values as the REPL prints them ----------------------------------
    cells = ["x = 5", "x", "1 + 1", "{1, 2, a = {b = 3}, 'four'}", "nil", "x, 'a', true",
             "mb.Marubatsu()", "mb.ai('ai14s')", "string.rep('ab', 3)", "1/0, math.pi"]
    expected = repl_text(cells)
    got = []
    for code in cells:
        reply, outputs, _ = k.run(code)
        for t, c, _ in outputs:
            if t in ("execute_result", "display_data"):
                got.append(c["data"]["text/plain"] + "\n")
    check("values_as_repl", "".join(got) == expected, "%r != %r" % ("".join(got), expected))
    reply, outputs, _ = k.run("y = 7")
    check("statement_shows_nothing", reply["status"] == "ok" and outputs == [], repr(outputs))
    reply, outputs, _ = k.run("a = 2\n-- a comment\na * 3, a\n\n")
    texts = [c["data"]["text/plain"] for t, c, _ in outputs if "data" in c]
    check("last_line_value", texts == ["6", "2"], repr(outputs))
    reply, outputs, _ = k.run("a = 2\nb = 3")
    check("last_line_statement", outputs == [], repr(outputs))
    reply, outputs, _ = k.run("s = [[\nabc\ndef]]\n")
    reply, outputs, _ = k.run("s")
    check("last_line_in_long_string", text_of(outputs) == "abc\ndef", repr(outputs))
    k.run("'first', 2")
    reply, outputs, _ = k.run("_")
    check("underscore_is_last_value", text_of(outputs) == "first", repr(outputs))

    # ---- streams ---------------------------------------------------------------
    reply, outputs, elapsed = k.run(
        'print("first") local t0 = mb.clock() while mb.clock() - t0 < 3 do end print("second")')
    first = [s for t, c, s in outputs if t == "stream" and "first" in c["text"]]
    check("print_streamed", first and elapsed - first[0] > 1.0,
          "first at %s s, cell took %.2f s" % (first, elapsed))
    reply, outputs, _ = k.run('print("a") display(1) io.write("b") display(2)')
    order = [(t, c.get("text") or c.get("data", {}).get("text/plain")) for t, c, _ in outputs]
    check("output_order", order == [("stream", "a\n"), ("display_data", "1"), ("stream", "b"),
                                    ("display_data", "2")], repr(order))
    reply, outputs, _ = k.run("for i = 1, 100000 do print(i) end")
    text = stream_text(outputs)
    messages = sum(1 for t, _, _ in outputs if t == "stream")
    # a few messages, not one per pipe read (ZeroMQ drops past 1,000 queued)
    check("long_output", text.startswith("1\n2\n") and text.endswith("\n99999\n100000\n")
          and len(text.split("\n")) == 100001 and messages <= 100,
          "%d lines in %d messages" % (len(text.split("\n")), messages))
    reply, outputs, _ = k.run('io.stderr:write("to stderr\\n")')
    check("stderr_stream", stream_text(outputs, "stderr") == "to stderr\n", repr(outputs))

    # ---- errors ------------------------------------------------------------------
    reply, outputs, _ = k.run("local function f() error('boom') end\nf()")
    tb = "\n".join(reply.get("traceback", []))
    check("runtime_error", reply["status"] == "error" and reply["ename"] == "LuaError"
          and re.fullmatch(r"In\[\d+\]:1: boom", reply["evalue"]) is not None
          and "stack traceback:" in tb and "in local 'f'" in tb and "[kernel]" not in tb
          and any(t == "error" for t, _, _ in outputs), repr(reply))
    reply, _, _ = k.run("x = = 1")
    check("syntax_error", reply["status"] == "error" and reply["ename"] == "SyntaxError"
          and "unexpected symbol" in reply["evalue"], repr(reply))
    reply, _, _ = k.run("error(setmetatable({}, {__tostring = function() return 'custom' end}))")
    check("error_object", reply["status"] == "error" and reply["evalue"] == "custom", repr(reply))
    reply, _, _ = k.run("setmetatable({}, {__repr_html = function() error('no picture') end})")
    check("display_error", reply["status"] == "error" and reply["ename"] == "DisplayError"
          and "no picture" in reply["evalue"], repr(reply))
    reply, outputs, _ = k.run("x")
    check("state_kept_after_errors", text_of(outputs) == "5", repr(outputs))

    # ---- the REPL's environment ---------------------------------------------------
    reply, outputs, _ = k.run("type(help), type(reload), type(mb.ai_match)")
    texts = [c["data"]["text/plain"] for t, c, _ in outputs if "data" in c]
    check("repl_globals", texts == ["function", "function", "function"], repr(texts))
    reply, outputs, _ = k.run('help "ai_match"')
    check("help_prints", "mb.ai_match{" in stream_text(outputs), stream_text(outputs)[:200])
    reply, outputs, _ = k.run("help")
    check("bare_help_lists", stream_text(outputs).startswith("The marubatsu Lua API") and
          not any(t == "execute_result" for t, _, _ in outputs), repr(outputs)[:300])
    reply, outputs, _ = k.run('help "display" help(jupyter.tree)')
    check("help_kernel_functions", stream_text(outputs).startswith("display(v, ...): shows")
          and "jupyter.tree(game" in stream_text(outputs), stream_text(outputs)[:300])
    reply, outputs, _ = k.run('mb.ai("first_square").name')
    check("ai_by_path", text_of(outputs) == "first_square", repr((reply, outputs)))

    # ---- input -------------------------------------------------------------------------
    reply, outputs, _ = k.run("s = io.read() return s .. '!'", allow_stdin=True, stdin=["hello"])
    check("input_line", text_of(outputs) == "hello!", repr(outputs))
    reply, outputs, _ = k.run("io.read('n') + 1", allow_stdin=True, stdin=["41"])
    check("input_number", text_of(outputs) == "42", repr(outputs))
    reply, outputs, _ = k.run("io.read()")
    check("input_without_box", text_of(outputs) == "nil", repr(outputs))

    # ---- rich display --------------------------------------------------------------------
    reply, outputs, _ = k.run("g = mb.Marubatsu() g:move(4) g:move(0) return g")
    svg = text_of(outputs, mime="image/svg+xml") or ""
    plain = text_of(outputs)
    check("game_svg", svg.startswith("<svg") and svg.count("<circle") == 1 and "<path" in svg
          and ">A<" in svg and ">3<" in svg and "turn o, move 2, last A1" in svg, svg[:300])
    check("game_plain_is_repl", plain + "\n" == repl_text(["g = mb.Marubatsu() g:move(4) g:move(0)", "g"]),
          repr(plain))
    reply, outputs, _ = k.run("w = mb.Marubatsu() for _, s in ipairs{'A1','B1','A2','B2','A3'} do "
                              "w:move(mb.move(s)) end return w")
    svg = text_of(outputs, mime="image/svg+xml") or ""
    check("winning_line", 'stroke="#d00"' in svg and "winner o" in svg, svg[-400:])
    reply, outputs, _ = k.run("display(g)")
    check("display_game", text_of(outputs, "display_data", "image/svg+xml") is not None, repr(outputs))
    reply, outputs, _ = k.run(
        "P = setmetatable({}, {__repr_html = function() return '<b>hi</b>' end, "
        "__repr_svg = function() return '<svg></svg>' end, __repr_text = function() return 'P!' end}) return P")
    data = outputs[0][1]["data"] if outputs else {}
    check("repr_protocol", data == {"text/html": "<b>hi</b>", "image/svg+xml": "<svg></svg>", "text/plain": "P!"},
          repr(data))
    reply, outputs, _ = k.run("Base = {__repr_svg = function(self) return '<svg>' .. self.n .. '</svg>' end}\n"
                              "Base.__index = Base\n"
                              "Child = setmetatable({}, {__index = Base}) Child.__index = Child\n"
                              "setmetatable({n = 7}, Child)")
    check("repr_inherited", text_of(outputs, mime="image/svg+xml") == "<svg>7</svg>", repr(outputs))
    reply, outputs, _ = k.run("jupyter.html('<i>x</i>'), jupyter.markdown('*y*')")
    check("markup_values", text_of(outputs, "display_data", "text/html") == "<i>x</i>"
          and text_of(outputs, "execute_result", "text/markdown") == "*y*", repr(outputs))
    reply, outputs, _ = k.run("jupyter.board(g, {numbers = true})")
    svg = text_of(outputs, mime="image/svg+xml") or ""
    check("board_numbers", svg.count("<circle") == 2 and ">1</text>" in svg, svg[:200])
    reply, outputs, _ = k.run("jupyter.tree(mb.Marubatsu(), 1)")
    svg = text_of(outputs, mime="image/svg+xml") or ""
    check("tree_picture", svg.startswith("<svg") and svg.count('<g class="board"') == 10
          and "10 boards" in (text_of(outputs) or ""), repr(text_of(outputs)))
    reply, outputs, _ = k.run("jupyter.tree(mb.Marubatsu{width = 4})")
    check("tree_3x3_only", reply["status"] == "error" and "3x3" in reply["evalue"], repr(reply))
    reply, outputs, _ = k.run("mb.ai_match{ai = {'ai2', 'ai2'}, match_num = 10, seed = 0, quiet = true}")
    html = text_of(outputs, mime="text/html") or ""
    cells_ = re.findall(r"<td>([^<]*)</td>", html)
    check("match_table_html", "ai2 VS ai2" in html and cells_[:9] == ["2", "7", "1", "5", "5", "0", "7", "12", "1"]
          and cells_[9:12] == ["20.0%", "70.0%", "10.0%"], repr((cells_, reply, outputs))[:1500])
    reply, outputs, _ = k.run("host = require 'marubatsu.host'\n"
                              "host.tournament{players = {'ai1', 'ai2', 'ai14s'}, games = 4, seed = 3, jobs = 1,"
                              " quiet = true}")
    html = text_of(outputs, mime="text/html") or ""
    check("tournament_html", html.count("<table") == 2 and "crosstable" in html and "<svg" in html
          and re.search(r"<td>1</td><th>ai14s</th><td>8</td>", html) is not None, html[:600])

    # ---- completion, inspection ----------------------------------------------------------
    c = k.request(lambda: k.kc.complete("x = mb.ai_ma", 12))
    check("complete_field", c["matches"] == ["ai_match"] and c["cursor_start"] == 7 and c["cursor_end"] == 12,
          repr(c))
    c = k.request(lambda: k.kc.complete("g:mo", 4))
    check("complete_method", c["matches"] == ["move", "move_to_xy"] and c["cursor_start"] == 2, repr(c))
    c = k.request(lambda: k.kc.complete('a = mb.ai("ai1', 14))
    check("complete_ai_name", "ai14s" in c["matches"] and c["cursor_start"] == 11, repr(c))
    c = k.request(lambda: k.kc.complete("for i = 1, 2 do\n  pri", 21))
    check("complete_second_line", c["matches"] == ["print"] and c["cursor_start"] == 18, repr(c))
    c = k.request(lambda: k.kc.complete("__", 2))
    check("complete_hides_kernel", not any(m.startswith("__jupyter") for m in c["matches"]), repr(c))
    r = k.request(lambda: k.kc.inspect("t = mb.ai_match{", 10))
    check("inspect_mb", r["found"] and r["data"]["text/plain"].startswith("mb.ai_match{...} -> tallies\n"),
          repr(r)[:300])
    r = k.request(lambda: k.kc.inspect("g:move(3)", 4))
    check("inspect_method", r["found"] and r["data"]["text/plain"].startswith("game:move(m)\n"), repr(r)[:300])
    r = k.request(lambda: k.kc.inspect("display(g)", 3))
    check("inspect_kernel_function", r["found"] and "__repr_html" in r["data"]["text/plain"], repr(r)[:300])
    r = k.request(lambda: k.kc.inspect("zzz_nothing", 3))
    check("inspect_unknown", not r["found"], repr(r))
    answers = [k.request(lambda c=c: k.kc.is_complete(c))["status"] for c in ("for i = 1, 2 do", "x = 1", "x = = 1")]
    check("is_complete", answers == ["incomplete", "complete", "invalid"], repr(answers))

    # ---- interrupts ------------------------------------------------------------------------
    k.run("t = 42")
    import threading
    threading.Timer(1.0, k.km.interrupt_kernel).start()
    reply, outputs, elapsed = k.run("while true do end", timeout=60)
    check("interrupt_loop", reply["status"] == "error" and reply["ename"] == "Interrupted"
          and reply["evalue"] == "interrupted" and elapsed < 30, repr((reply, elapsed)))
    reply, outputs, _ = k.run("t")
    check("variables_kept_after_interrupt", text_of(outputs) == "42", repr(outputs))
    k.km.interrupt_kernel()
    time.sleep(0.5)
    reply, outputs, _ = k.run("t")
    check("interrupt_between_cells", text_of(outputs) == "42" and not stream_text(outputs, "stderr"),
          repr(outputs))
    # interrupts at every moment of a short cell's life, its start and end
    # included (before repl.guard, 1 run in 7 under load lost a reply here)
    statuses = []
    tries = 60
    for i in range(tries):
        msg_id = k.kc.execute("t = t + 1")
        time.sleep(0.001 * (i % 9))
        k.km.interrupt_kernel()
        statuses.append(k.request(lambda: msg_id, timeout=30)["status"])
    reply, outputs, _ = k.run("t")
    value = int(text_of(outputs) or 0)
    # a cell that says ok has run; one the interrupt reached may have run
    check("interrupts_as_cells_end", 42 + statuses.count("ok") <= value <= 42 + tries
          and not stream_text(outputs, "stderr"), repr((statuses, value, outputs)))
    threading.Timer(1.0, k.km.interrupt_kernel).start()
    reply, outputs, elapsed = k.run("u = 1 s = io.read()", allow_stdin=True, stdin=None)
    check("interrupt_input", reply["status"] == "error" and reply["ename"] == "Interrupted" and elapsed < 30,
          repr(reply))
    reply, outputs, _ = k.run("u")
    check("after_interrupt_input", text_of(outputs) == "1", repr(outputs))

    # ---- a crash, a kill, an exit ------------------------------------------------------------
    reply, outputs, _ = k.run("io.popen('kill -9 $PPID'):read('a')")
    check("killed_in_cell", reply["status"] == "error" and reply["ename"] == "EngineDied"
          and "killed by SIGKILL" in reply["evalue"] and "variables of earlier cells are gone" in reply["evalue"],
          repr(reply))
    reply, outputs, _ = k.run("t, 1 + 1")
    texts = [c["data"]["text/plain"] for t, c, _ in outputs if "data" in c]
    check("restarted", texts == ["nil", "2"], repr(outputs))
    reply, outputs, _ = k.run("io.popen('echo $PPID'):read('l')")
    pid = int(text_of(outputs))
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    reply, outputs, _ = k.run("1 + 2")
    notice = stream_text(outputs, "stderr")
    check("killed_between_cells", "killed by SIGKILL" in notice and "new marubatsu process" in notice
          and text_of(outputs) == "3", repr(outputs))
    reply, outputs, _ = k.run("os.exit(3)")
    check("exit_in_cell", reply["status"] == "error" and "exited with status 3" in reply["evalue"], repr(reply))
    reply, outputs, _ = k.run("io.popen('echo $PPID'):read('l')")
    last_pid = int(text_of(outputs))
finally:
    k.close()

# ---- the program's options and init file -------------------------------------------
os.environ["MARUBATSU_INIT"] = "init_ran = 1"
os.environ["MARUBATSU_KERNEL_ARGS"] = "-e 'from_args = 7'"
k = Kernel()
try:
    reply, outputs, _ = k.run("init_ran, from_args")
    texts = [c["data"]["text/plain"] for t, c, _ in outputs if "data" in c]
    check("init_file_and_args", texts == ["1", "7"], repr(outputs))
finally:
    k.close()
os.environ["MARUBATSU_KERNEL_ARGS"] = "-E"
k = Kernel()
try:
    reply, outputs, _ = k.run("init_ran")
    check("args_skip_init", text_of(outputs) == "nil", repr(outputs))
finally:
    k.close()
os.environ["MARUBATSU_KERNEL_ARGS"] = "--bogus"
k = Kernel()
try:
    reply, outputs, _ = k.run("1 + 1")
    check("engine_that_cannot_start", reply["status"] == "error" and reply["ename"] == "EngineDied"
          and "did not start" in reply["evalue"] and "unknown option '--bogus'" in stream_text(outputs, "stderr"),
          repr((reply, outputs))[:600])
finally:
    k.close()
del os.environ["MARUBATSU_KERNEL_ARGS"], os.environ["MARUBATSU_INIT"]

gone = False
for _ in range(100):
    if not os.path.exists("/proc/%d" % last_pid):
        gone = True
        break
    time.sleep(0.1)
check("no_process_left", gone, "pid %d still there" % last_pid)
sys.exit(1 if failures else 0)
