-- a script that returns nil instead of an AI (match exits 2)
return nil
