-- gomoku and mcts analyses on 9x9: squares named on their board, scores best first
g = mb.Marubatsu{width = 9, height = 9, k = 5}
g:move(mb.move("E5", g)) g:move(mb.move("F6", g))
mb.seed(1)
mb.ai("mcts")(g, {analyze = true, playouts = 400})
b = mb.ai("gomoku")(g, {analyze = true, timelimit = 0.05})
b.score_by_move[b.moves[1]], #b.moves, b.candidate[1] == b.move, b.width, b.height
