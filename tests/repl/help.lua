help "cmove"
help(mb.ai_match)
help "no_such_thing"
