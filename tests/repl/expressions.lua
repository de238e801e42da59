-- values of expressions are printed, statements print nothing
1 + 1
"a string"
nil
1, 2, "three"
x = 10
x * 2
_
math.pi
