-- a script with a syntax error at its end (match must name FILE:LINE and exit 2)
return function(game)
    return (
