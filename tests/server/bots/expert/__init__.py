"""The expert bot: its simulator held to the engine, its rollouts, search and
knowledge, and an expert at a real server."""
