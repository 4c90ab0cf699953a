"""What the client keeps between runs, in the user's state directory: the seat to
resume, the tokens that read private records, the shuffle commitments received, the
pinned certificates and the display preferences; each file written whole or not at all.

It may import the protocol; it imports nothing else of the client.
"""
