-- .luacheckrc: the Lua lint of `make test` (tests/source/lua_check.sh, with
-- Debian's lua-check): Lua 5.4, lines of at most 120 characters, busted's
-- globals in the specs; unused callback arguments are allowed (a callback
-- keeps the signature it is called with).
std = "lua54"
max_line_length = 120
unused_args = false
-- deliberate: an empty branch that says what it leaves alone ("ignored, as
-- the protocol asks"), not (x < y) where a NaN must fail the check, and a
-- `<close>` lock, held to the end of its block and never read
ignore = {"542", "581", "211/lock"}
-- a describe block may shadow an outer helper with its own variant, and a
-- case may stop a loop at its first step on purpose
files["tests/lua"] = {std = "+busted", ignore = {"431", "433", "512"}}
files["tests/**/*_spec.lua"] = {std = "+busted"}
-- run by `marubatsu run` or the REPL, where mb is a global
files["tests/cli/scripts"] = {globals = {"mb"}}
files["tests/repl"] = {globals = {"mb", "help", "quit"}}
files["tests/bench"] = {globals = {"mb"}}
-- the sandbox's environment and the kernel's driver replace standard
-- functions on purpose (an allow-list; the notebook's input and output)
files["scripts/lib/sandbox_env.lua"] = {ignore = {"121", "122"}}
files["src/jupyter/driver.lua"] = {ignore = {"122"}}
files["tests/cli/scripts/progress_lines.lua"] = {ignore = {"122"}}
-- inputs that are broken or hostile on purpose
exclude_files = {
    "tests/cli/scripts/syntax_error*.lua",
    "tests/repl/*.lua",
    "tests/hostile/*.lua",
    "tests/tournament/hostile/*.lua",
    "tests/lua/scripts/bad_*.lua",
    "build/**",
    -- being edited: the lead lints them after merging
    "scripts/gomoku.lua",
    "tests/bench/**",
}
