-- always_centre.lua: a user AI that plays the centre even when it is taken.
return function() return 4 end
