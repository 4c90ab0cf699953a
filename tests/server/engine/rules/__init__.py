"""The rules engine's tests rule by rule (R1-R12): the flow of a game, what is legal,
the face cards, one card, the penalties, the scoring, each seat's view."""
