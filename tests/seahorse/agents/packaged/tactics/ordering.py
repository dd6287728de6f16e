"""Orders actions so that the agent's choice is reproducible."""


def ordered_actions(actions):
    return sorted(actions, key=lambda action: (action.data["piece"], action.data["position"]))
