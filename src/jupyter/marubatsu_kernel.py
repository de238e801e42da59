#!/usr/bin/python3
"""marubatsu_kernel.py: the Jupyter kernel `marubatsu`.

A wrapper kernel on ipykernel's Kernel base (Debian's python3-ipykernel),
which speaks Jupyter's protocol (ZeroMQ sockets, signed messages, the
heartbeat and control channels). The Lua runs in a child process: the
program `marubatsu` as its REPL, fed from pipes, driven by driver.lua
(beside this file), so a cell behaves as a REPL chunk in the REPL's own
globals and a crash or a kill of the engine costs a restart, not the kernel.

Child -> kernel: the cell's stdout and stderr as they come (streamed), and
frames on a pipe of their own (driver.lua says which). Kernel -> child: one
REPL line per request, then the request line. The interrupt (the stop
button: SIGINT to this process) is passed on as SIGINT to the child's
process group while a cell runs, as a terminal's Ctrl-C would be.

Run by Jupyter through the kernelspec (kernel.json.in): python3 THIS -f
CONNECTION_FILE. Environment: MARUBATSU_PROGRAM (the program; else
../../bin/marubatsu from here, then build/marubatsu of a source tree, then
PATH), MARUBATSU_KERNEL_ARGS (options for it, shell words: -I DIR, -E, -e
CODE), and the program's own (MARUBATSU_PATH, MARUBATSU_INIT).
"""
import codecs
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import time

from ipykernel.kernelbase import Kernel

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "driver.lua")
# where a word to complete starts: after the last of these (as the REPL)
WORD_BREAKS = " \t\n\"'`@$><=;|&{}()[],+-*/%^~#.:"
MAX_FRAME = 256 * 1024 * 1024  # bytes of one frame's body
START_TIMEOUT = 60.0  # seconds for the child to be ready (a sanitized build starts slowly)
# a cell's output is sent at most this often (s), or when this much is held:
# one message per pipe read would flood the front end (and past ZeroMQ's
# high-water mark of 1,000 messages, lose some)
STREAM_INTERVAL = 0.05
STREAM_MAX = 1 << 20
ENAMES = {"runtime": "LuaError", "syntax": "SyntaxError", "interrupted": "Interrupted",
          "display": "DisplayError"}
RED, RESET = "\x1b[0;31m", "\x1b[0m"


def find_program():
    """The marubatsu program the kernel runs."""
    program = os.environ.get("MARUBATSU_PROGRAM")
    if program:
        return program
    for rel in ("../../bin/marubatsu", "../../build/marubatsu"):
        path = os.path.normpath(os.path.join(HERE, rel))
        if os.access(path, os.X_OK):
            return path
    return shutil.which("marubatsu") or "marubatsu"


def lua_string(text):
    """A Lua string literal for text."""
    out = []
    for byte in text.encode("utf-8"):
        out.append(chr(byte) if 32 <= byte < 127 and byte not in (34, 92) else "\\%03d" % byte)
    return '"' + "".join(out) + '"'


def escape_line(text):
    """A request's body on one line: backslashes and newlines escaped."""
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def exit_text(status):
    """How a process ended, for people."""
    if status is None:
        return "ended"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "signal %d" % -status
        return "was killed by %s" % name
    return "exited with status %d" % status


class EngineDied(Exception):
    """The child ended (or broke the protocol) while the kernel waited."""


class Engine:
    """The marubatsu child: its pipes, and the frames it sends."""

    def __init__(self, program, args, on_stream, on_tick=lambda: None):
        self.on_stream = on_stream  # (name, text) for the child's output
        self.on_tick = on_tick  # called at least every STREAM_INTERVAL while waiting
        frames_r, frames_w = os.pipe()
        argv = [program] + args + ["-i"]
        setpriv = shutil.which("setpriv")
        if setpriv:  # the child dies with this kernel, even when killed
            argv = [setpriv, "--pdeathsig", "KILL", "--"] + argv
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, pass_fds=(frames_w,),
                                         start_new_session=True, bufsize=0)
        finally:
            os.close(frames_w)
        self.frames = frames_r
        self.buf = bytearray()
        self.decoders = {}
        self.sel = selectors.DefaultSelector()
        for f, name in ((self.proc.stdout.fileno(), "stdout"),
                        (self.proc.stderr.fileno(), "stderr"), (self.frames, "frames")):
            os.set_blocking(f, False)
            self.sel.register(f, selectors.EVENT_READ, name)
        with open(DRIVER, "rb") as f:
            driver = f.read()
        boot = b"assert(load(io.read(%d), \"=[kernel]\"))(%s, %s)\n" % (
            len(driver), lua_string(str(frames_w)).encode(), lua_string(program).encode())
        self.write(boot + driver)
        kind, args_, _ = self.next_frame(timeout=START_TIMEOUT)
        if kind != "ready":
            raise EngineDied("marubatsu did not start (its first answer was %r)" % kind)
        self.version = args_[0] if args_ else "?"

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def write(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineDied("its standard input is closed") from None

    def request(self, kind, body):
        """Send one request: the REPL line, then the request."""
        self.write(b"__jupyter_step()\n" + ("%s\t%s\n" % (kind, escape_line(body))).encode("utf-8", "replace"))

    def answer_input(self, text):
        self.write(("input\t%s\n" % escape_line(text) if text is not None else "eof\t\n").encode("utf-8", "replace"))

    def interrupt(self):
        try:
            os.killpg(self.proc.pid, signal.SIGINT)
        except OSError:
            pass

    def _stream(self, fd, name, final=False):
        """Read what fd has (all of it); pass it on. False at its end."""
        while True:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                return True
            except OSError:
                data = b""
            dec = self.decoders.setdefault(name, codecs.getincrementaldecoder("utf-8")("replace"))
            text = dec.decode(data, final=not data)
            if text:
                self.on_stream(name, text)
            if not data:
                self.sel.unregister(fd)
                return False
            if not final:
                return True

    def _parse(self):
        """The first whole frame in the buffer: (kind, args, body) or None."""
        nl = self.buf.find(b"\n")
        if nl < 0:
            if len(self.buf) > 4096:
                raise EngineDied("it sent a frame header over 4 KiB")
            return None
        words = bytes(self.buf[:nl]).decode("utf-8", "replace").split(" ")
        try:
            size = int(words[-1])
        except ValueError:
            raise EngineDied("it sent a bad frame header %r" % words) from None
        if size < 0 or size > MAX_FRAME:
            raise EngineDied("it sent a frame of %d bytes" % size)
        if len(self.buf) < nl + 1 + size:
            return None
        body = bytes(self.buf[nl + 1:nl + 1 + size])
        del self.buf[:nl + 1 + size]
        return words[0], words[1:-1], body

    def next_frame(self, timeout=None):
        """The next frame; the streams are read and passed on meanwhile, and
        before each frame all they hold, so output keeps its order. Raises
        EngineDied when the child ends; returns None after `timeout` s."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            frame = self._parse()
            if frame:
                return frame
            if not self.alive():
                # what it wrote before it ended, then the end
                self.drain()
                if self._read_frames(final=True):
                    continue
                raise EngineDied("it stopped")
            wait = STREAM_INTERVAL if deadline is None else max(0.0, min(STREAM_INTERVAL, deadline - time.monotonic()))
            events = self.sel.select(wait)
            self.on_tick()
            names = {key.data: key.fd for key, _ in events}
            if "frames" in names:
                self.drain()  # the output the child wrote before this frame first
                if not self._read_frames():
                    raise EngineDied("it closed its frames")
                continue
            for name, fd in names.items():
                self._stream(fd, name)
            if deadline is not None and time.monotonic() >= deadline:
                return None

    def _read_frames(self, final=False):
        """Add what the frames pipe holds to the buffer. False at its end
        (or, with final, when it held nothing)."""
        if self.frames not in self.sel.get_map():
            return False
        got = False
        while True:
            try:
                data = os.read(self.frames, 1 << 20)
            except BlockingIOError:
                return got or not final
            if not data:
                self.sel.unregister(self.frames)
                return got
            self.buf += data
            got = True

    def drain(self):
        """Pass on all that the streams hold now."""
        for key in list(self.sel.get_map().values()):
            if key.data != "frames":
                self._stream(key.fd, key.data, final=True)

    def close(self, wait=2.0):
        """End the child: its input closed, then SIGTERM, then SIGKILL, to
        its whole process group (workers, pipes it opened)."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except OSError:
                break
            try:
                self.proc.wait(wait)
            except subprocess.TimeoutExpired:
                continue
        try:
            self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            pass
        self.sel.close()
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()
        os.close(self.frames)


class MarubatsuKernel(Kernel):
    implementation = "marubatsu"
    implementation_version = "0.1.0"
    language = "lua"
    language_version = "5.4"
    language_info = {"name": "lua", "version": "5.4", "mimetype": "text/x-lua", "file_extension": ".lua",
                     "codemirror_mode": "lua", "pygments_lexer": "lua"}
    banner = "marubatsu: the Lua 5.4 REPL of the marubatsu engine (help() for the API)"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.program = find_program()
        self.args = shlex.split(os.environ.get("MARUBATSU_KERNEL_ARGS", ""))
        self.engine = None
        self.busy = False  # a cell runs: interrupts go to the child
        self.in_input = False  # waiting for an input box
        self.silent = False
        self.interrupt_pending = False
        self.pending = []  # output not sent yet: [(name, [text, ...])]
        self.pending_size = 0
        self.last_flush = 0.0
        self.notice = None  # why the engine was restarted, for the next cell
        try:
            self.start_engine()
        except EngineDied as e:
            self.notice = str(e)

    # ---- the engine ------------------------------------------------------

    def on_stream(self, name, text):
        """Output of the child: held, and sent in order by flush_streams."""
        if self.pending and self.pending[-1][0] == name:
            self.pending[-1][1].append(text)
        else:
            self.pending.append((name, [text]))
        self.pending_size += len(text)
        if self.busy and self.pending_size >= STREAM_MAX:
            self.flush_streams()

    def on_tick(self):
        if self.busy and self.pending and time.monotonic() - self.last_flush >= STREAM_INTERVAL:
            self.flush_streams()

    def flush_streams(self):
        """Send the held output (a cell's; between cells it waits for the
        next one)."""
        for name, texts in self.pending:
            if not self.silent:
                self.send_response(self.iopub_socket, "stream", {"name": name, "text": "".join(texts)})
        self.pending = []
        self.pending_size = 0
        self.last_flush = time.monotonic()

    def start_engine(self):
        try:
            self.engine = Engine(self.program, self.args, self.on_stream, self.on_tick)
        except EngineDied as e:
            self.engine = None
            raise EngineDied("marubatsu (%s) did not start: %s" % (self.program, e)) from None
        except OSError as e:
            self.engine = None
            raise EngineDied("marubatsu (%s) could not be started: %s" % (self.program, e)) from None

    def lost_engine(self, why):
        """The child ended: pass on its last output, end what is left of its
        process group, start another. Returns the message for people."""
        engine, self.engine = self.engine, None
        status = None
        if engine:
            engine.drain()
            try:
                engine.proc.wait(2.0)
            except subprocess.TimeoutExpired:
                pass
            status = engine.proc.poll()
            engine.close(wait=0.5)
        what = "marubatsu %s" % exit_text(status) if status is not None else "marubatsu stopped (%s)" % why
        try:
            self.start_engine()
            return what + "; a new marubatsu process was started: the variables of earlier cells are gone."
        except EngineDied as e:
            return what + "; starting a new one failed: %s" % e

    def ensure_engine(self):
        """A running engine, started anew if it died between cells; the
        message saying so, or None."""
        notice, self.notice = self.notice, None
        if self.engine is not None and not self.engine.alive():
            notice = self.lost_engine("it ended between cells")
        elif self.engine is None:
            try:
                self.start_engine()
                notice = None if notice is None else notice + "; started again."
            except EngineDied as e:
                notice = str(e)
        return notice

    def ask(self, kind, body):
        """A request answered by one reply frame: its text ("" if none)."""
        if self.engine is None or not self.engine.alive():
            return ""
        try:
            self.engine.request(kind, body)
            while True:
                frame = self.engine.next_frame()
                if frame[0] == "reply":
                    return frame[2].decode("utf-8", "replace")
        except EngineDied as e:
            self.notice = self.lost_engine(str(e))
            return ""

    # ---- execution ---------------------------------------------------------

    # While a request is handled, SIGINT (the interrupt) runs on_sigint, not
    # ipykernel's KeyboardInterrupt, which could cut the handler before its
    # reply: during a cell it goes on to the child; just before the cell
    # starts it is kept and passed on as the cell starts; otherwise dropped.
    def pre_handler_hook(self):
        self.interrupt_pending = False
        self.saved_sigint_handler = signal.signal(signal.SIGINT, self.on_sigint)

    def post_handler_hook(self):
        signal.signal(signal.SIGINT, self.saved_sigint_handler)
        self.interrupt_pending = False

    def on_sigint(self, signum, frame):
        if self.busy and self.engine is not None:
            self.engine.interrupt()
        else:
            self.interrupt_pending = True
        if self.in_input:
            raise KeyboardInterrupt

    def publish_error(self, ename, evalue, traceback):
        self.flush_streams()
        if not self.silent:
            self.send_response(self.iopub_socket, "error",
                               {"ename": ename, "evalue": evalue, "traceback": traceback})

    def read_input(self, prompt, allow_stdin):
        """The line for an input frame, or None (no input box, or its end)."""
        if not allow_stdin:
            return None
        self.in_input = True
        try:
            return self.raw_input(prompt)
        except KeyboardInterrupt:
            raise
        except Exception:  # EOFError, StdinNotImplementedError
            return None
        finally:
            self.in_input = False

    def run_cell(self, code, allow_stdin):
        """Run one cell; returns (ename, evalue, traceback) or None."""
        bundle = {}
        error = None
        self.engine.request("run %d" % self.execution_count, code)
        self.busy = True
        if self.interrupt_pending:
            self.interrupt_pending = False
            self.engine.interrupt()
        while True:
            kind, args, body = self.engine.next_frame()
            text = body.decode("utf-8", "replace")
            if kind == "data" and args:
                bundle[args[0]] = text
            elif kind in ("result", "display"):
                data, bundle = bundle, {}
                if "application/json" in data:
                    try:
                        data["application/json"] = json.loads(data["application/json"])
                    except ValueError:
                        del data["application/json"]
                self.flush_streams()
                if not self.silent:
                    if kind == "result":
                        self.send_response(self.iopub_socket, "execute_result",
                                           {"execution_count": self.execution_count, "data": data, "metadata": {}})
                    else:
                        self.send_response(self.iopub_socket, "display_data", {"data": data, "metadata": {}})
                if kind == "display":
                    self.engine.write(b"--ack\n")
            elif kind == "error":
                error = [ENAMES.get(args[0] if args else "", "LuaError"), text, [RED + text + RESET]]
            elif kind == "traceback" and error:
                error[2] += [line for line in text.split("\n") if line]
                self.publish_error(*error)
            elif kind == "input":
                self.flush_streams()
                try:
                    answer = self.read_input(text, allow_stdin)
                except KeyboardInterrupt:
                    continue  # the child has its SIGINT: the cell ends interrupted
                self.engine.answer_input(answer)
            elif kind == "done":
                self.flush_streams()
                return error if args and args[0] == "error" else None

    def do_execute(self, code, silent, store_history=True, user_expressions=None, allow_stdin=False):
        self.silent = silent
        self._allow_stdin = allow_stdin
        notice = self.ensure_engine()
        if notice:
            self.on_stream("stderr", notice + "\n")
        self.flush_streams()  # what came between cells, and the notice
        error = None
        if self.engine is None:
            error = ("EngineDied", notice or "marubatsu is not running", [RED + (notice or "") + RESET])
            self.publish_error(*error)
        elif code.strip():
            try:
                error = self.run_cell(code, allow_stdin)
            except EngineDied as e:
                self.busy = True  # its last output belongs to this cell
                message = self.lost_engine(str(e))
                error = ("EngineDied", message, [RED + message + RESET])
                self.publish_error(*error)
            finally:
                self.busy = False
        if error:
            return {"status": "error", "execution_count": self.execution_count, "ename": error[0],
                    "evalue": error[1], "traceback": error[2]}
        return {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}

    # ---- completion, inspection ------------------------------------------

    def do_complete(self, code, cursor_pos):
        cursor_pos = len(code) if cursor_pos is None else cursor_pos
        line = code[:cursor_pos].rsplit("\n", 1)[-1]
        start = len(line)
        while start > 0 and line[start - 1] not in WORD_BREAKS:
            start -= 1
        word = line[start:]
        text = self.ask("complete", word + "\0" + line)
        matches = [m for m in text.split("\n") if m]
        return {"status": "ok", "matches": matches, "cursor_start": cursor_pos - len(word),
                "cursor_end": cursor_pos, "metadata": {}}

    @staticmethod
    def name_at(code, pos):
        """The dotted name under the cursor ("mb.ai_match", "g:move"), or the
        function's before an open parenthesis."""
        def is_name(c):
            return c.isalnum() or c in "_.:"
        end = pos
        while end < len(code) and (code[end].isalnum() or code[end] == "_"):
            end += 1
        start = pos
        while start > 0 and is_name(code[start - 1]):
            start -= 1
        name = code[start:end].strip(".:")
        if not name:
            i = pos
            while i > 0 and code[i - 1] in " \t({\"'":
                i -= 1
            if i < pos:
                return MarubatsuKernel.name_at(code, i) if i > 0 and is_name(code[i - 1]) else ""
        return name

    def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        name = self.name_at(code, min(cursor_pos, len(code)))
        text = self.ask("inspect", name) if name else ""
        data = {"text/plain": text} if text else {}
        return {"status": "ok", "found": bool(text), "data": data, "metadata": {}}

    def do_is_complete(self, code):
        status = self.ask("is_complete", code) or "unknown"
        reply = {"status": status}
        if status == "incomplete":
            reply["indent"] = ""
        return reply

    def do_shutdown(self, restart):
        if self.engine is not None:
            self.engine.close()
            self.engine = None
        return {"status": "ok", "restart": restart}


if __name__ == "__main__":
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(kernel_class=MarubatsuKernel)
