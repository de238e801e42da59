g = mb.Marubatsu()
g:move(4)
g
{g, mb.ai("ai14s"), print}
t = {list = {1, 2, {3, {4, {5}}}}, ["key with spaces"] = true}
t.me = t
t
big = {}
for i = 1, 100 do big[i] = i end
big
mb.seed(0)
mb.ai("ai14s")(g, {analyze = true})
mb.ai("ai3")(g, {analyze = true})
g:count_markpats()
