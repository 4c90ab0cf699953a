"""The client against a real cluster (two nodes on a real redis-server): its session
and ``craits-bot`` following redirects, the lobby's unavailable rows."""
