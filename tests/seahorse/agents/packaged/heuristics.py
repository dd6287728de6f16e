"""A sibling module of packaged_player.py."""


def piece_preference(action, weights):
    """The weight of the action's kind of piece (cities first, say)."""
    return weights[action.data["piece"][1]]
