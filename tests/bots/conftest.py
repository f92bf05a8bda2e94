from tests.adapters.games import tiny_game_registered  # noqa: F401
