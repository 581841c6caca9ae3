-- 0003: the table's log: the events of each action in words, and the host's notes (timers, seats).
-- seat NULL: a public line (the table in the channel); a seat number: a private line for that
-- seat's own message only. Lines of an action are written in the same transaction as the action.

CREATE TABLE log (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL CHECK (version >= 0),
    seat    INTEGER,
    text    TEXT    NOT NULL
);

CREATE INDEX log_by_game ON log (game_id, id);
