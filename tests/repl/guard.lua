-- guard.lua: repl.guard, which the Jupyter driver runs under outside its cells: a Ctrl-C (SIGINT) that comes while guarded is held back, the chunk goes on; lifting the guard gives the held one to the chunk at once; guarding again forgets one held; without the guard a Ctrl-C stops the chunk.
guard = debug.getregistry()["marubatsu.repl"].guard
pid = io.open("/proc/self/stat"):read("n")
function ctrl_c() io.popen("kill -INT " .. pid):close() local t = os.clock() + 0.3 while os.clock() < t do end end
guard(true) ctrl_c() print("guarded: still running")
guard(false) local t = os.clock() + 3 while os.clock() < t do end print("not reached: the held Ctrl-C stops this")
print("after the lifted guard")
guard(true) ctrl_c() guard(true) guard(false) local t = os.clock() + 0.3 while os.clock() < t do end print("forgotten: still running")
ctrl_c() print("not reached: no guard")
print("the end")
