"""Sessions on top of the engine and the model: ``Game`` (a running game: answer, undo, views, logs),
save files (``saves``) and the determinization of a seat's view for the search bots (``determinize``).
"""
