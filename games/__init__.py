"""Spider Solitaire games: the rules engine, the solver and the Django app that serves them."""
