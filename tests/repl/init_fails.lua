"the REPL still starts"
