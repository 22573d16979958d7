"""The rules of Unrest, one module per part of the game: setup, the round, liberation and the round's end."""
