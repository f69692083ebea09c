# The games cardref knows: one line each (docs/adding_a_game.md). Each entry
# is a folder under games/ whose last part is the game's id and namespace;
# the registry of every layer (engines, codecs, log views, JSON adapters,
# statistics hooks, heuristics) is generated from this list.
set(CARDREF_GAMES
  craits
  kraken
  krass_kariert
  testing/tiny_tricks  # test-only: served only with --serve_test_games
)
