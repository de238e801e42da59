"""tests/jupyter/client.py: a small client of the `marubatsu` kernel for the
tests (kernel_test.py, the install test): start the kernel named in
JUPYTER_PATH's kernelspecs, run cells and collect what they send.

As a program: python3 client.py CODE EXPECTED runs CODE in a fresh kernel
and exits 0 when its value's text/plain is EXPECTED (else prints what came).
"""
import queue
import sys
import time

from jupyter_client.manager import KernelManager


class Kernel:
    def __init__(self, name="marubatsu", startup=120):
        self.km = KernelManager(kernel_name=name)
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=startup)

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=False)

    def child_pids(self):
        """The kernel's process and its children's pids (for leak checks)."""
        return self.km.provisioner.process.pid if self.km.provisioner else None

    def run(self, code, timeout=120, allow_stdin=False, stdin=None, on_output=None):
        """Run a cell: (reply content, outputs, seconds). outputs: a list of
        (msg_type, content, seconds) in order; stdin (a list) answers input
        requests, in order, then with the end of input; None leaves them
        unanswered."""
        msg_id = self.kc.execute(code, allow_stdin=allow_stdin)
        outputs = []
        t0 = time.monotonic()
        deadline = t0 + timeout
        reply = None
        idle = False
        while reply is None or not idle:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply to %r within %d s" % (code, timeout))
            if allow_stdin and stdin is not None:
                try:
                    req = self.kc.get_stdin_msg(timeout=0.01)
                    if req["msg_type"] == "input_request":
                        self.kc.input(stdin.pop(0) if stdin else "\x04")
                except queue.Empty:
                    pass
            try:
                msg = self.kc.get_iopub_msg(timeout=0.05)
                if msg["parent_header"].get("msg_id") == msg_id:
                    t = msg["msg_type"]
                    if t == "status" and msg["content"]["execution_state"] == "idle":
                        idle = True
                    elif t in ("stream", "execute_result", "display_data", "error"):
                        outputs.append((t, msg["content"], time.monotonic() - t0))
                        if on_output:
                            on_output(t, msg["content"])
            except queue.Empty:
                pass
            if reply is None:
                try:
                    msg = self.kc.get_shell_msg(timeout=0.01)
                    if msg["parent_header"].get("msg_id") == msg_id:
                        reply = msg["content"]
                        elapsed = time.monotonic() - t0
                except queue.Empty:
                    pass
        return reply, outputs, elapsed

    def request(self, send, timeout=30):
        """Send a shell request (a function of the client returning its
        msg_id) and return the reply's content."""
        msg_id = send()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.kc.get_shell_msg(timeout=0.1)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg["content"]
        raise TimeoutError("no reply")


def text_of(outputs, kind="execute_result", mime="text/plain"):
    """The mime text of the first output of that kind, or None."""
    for t, c, *_ in outputs:
        if t == kind and mime in c.get("data", {}):
            return c["data"][mime]
    return None


def stream_text(outputs, name="stdout"):
    return "".join(c["text"] for t, c, *_ in outputs if t == "stream" and c["name"] == name)


if __name__ == "__main__":
    k = Kernel()
    try:
        reply, outputs, _ = k.run(sys.argv[1])
    finally:
        k.close()
    got = text_of(outputs)
    if reply["status"] != "ok" or got != sys.argv[2]:
        print("status %s, value %r, outputs %r" % (reply["status"], got, outputs))
        sys.exit(1)
