-- 0005: ratings per server, game and player (openskill, Plackett-Luce), and the rating of each
-- finished game per player. A player is a Discord user id in decimal, or "ai:<name>" for an AI seat.
-- rating_events' primary key makes rating a game twice impossible.

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game_key   TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    name       TEXT    NOT NULL,               -- the name last seen at a table
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game_key, player)
);

CREATE TABLE rating_events (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player       TEXT    NOT NULL,
    guild_id     INTEGER NOT NULL,
    game_key     TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    rank         INTEGER NOT NULL,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    created_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE INDEX rating_events_player ON rating_events (guild_id, player, created_at);
