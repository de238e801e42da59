function double(n)
  return 2 * n
end
double(21)
local t = {}
for i = 1, 3 do
  t[i] = double(i)
end
t = {
  a = 1,
  b = {2, 3},
}
t
