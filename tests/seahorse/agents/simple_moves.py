"""A helper the test agents import from their own folder, as students' agents import theirs:
the wrapper must put the agent's folder on sys.path."""


def first_legal_action(state):
    """The first legal LightAction in a fixed order (piece, then cell), for reproducible games."""
    actions = state.get_possible_light_actions()
    return min(actions, key=lambda action: (action.data["piece"], action.data["position"]))
