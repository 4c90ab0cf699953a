"""Between the games of a table: rematch offers (seats rotated, the series' score)
and quick play's own tables, at the table and over real sockets."""
