-- hostile: raises while the script loads; mb.sandbox.load returns nil and
-- "error: ...".
error("refusing to load")
