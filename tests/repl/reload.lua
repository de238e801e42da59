a = mb.ai("ai2")
b = reload("ai2")
a == b
a.name, b.name
mb.reload()
mb.ai("ai2") == b
