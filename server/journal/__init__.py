"""What is recorded: the journal (:mod:`.journal`, SQLite; its file
:mod:`.file`, its writer process :mod:`.writer`, the server's batches
:mod:`.batches`, the recorder at work :mod:`.recorder`), opening it and
restoring its tables (:mod:`.restore`), checking it (:mod:`.check`), and the
finished games: records (:mod:`.records`), replay frames (:mod:`.replay_frames`),
who may read them (:mod:`.record_access`), the time to rebuild them (:mod:`.rebuilds`).

It may import the table (it rebuilds tables; it implements the table's
journal port), the engine and the kit; the network, the app and the operator's
commands import it. The table never does.
"""
