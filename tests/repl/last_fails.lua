print("fine")
error("the last chunk fails")
