"""The client's widgets, one per region of the table screen: the drawn table
(:mod:`.felt_view`, on :mod:`.canvas_widget`), the hand, the log and chat, the top line
and prompt, the keys' bar; the card's motion, the ASCII filter, the row caches.

It may import the presentation and the core, never the screens or dialogs (they
import it); a widget asks for nothing, it shows what it is given.
"""
