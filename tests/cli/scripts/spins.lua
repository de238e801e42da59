-- spins.lua: a user AI that never returns.
return function() while true do end end
