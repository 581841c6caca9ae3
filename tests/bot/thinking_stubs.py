

def illegal(situation: dict, level: str, seconds: float, iterations: int | None, seed: str) -> dict:
    """A search with a bug: it answers a move the rules refuse."""
    return {"type": "no-such-move"}
