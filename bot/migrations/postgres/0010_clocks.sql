-- 0010: clocks for games that last days (bot/clocks.py).
-- games.clock: the game's clock as JSON (a time per turn or a time bank; each seat's bank, whether it
-- runs, extra time given, the game paused, seats on vacation), written with the deadline it sets.
-- NULL: a game without a timer, or one started before this migration (its fixed deadline as before).
ALTER TABLE games ADD COLUMN clock TEXT CHECK (clock IS NULL OR json_valid(clock));

-- A player's vacation: every running game's clock of theirs stops until `until` (one at a time).
CREATE TABLE vacations (
    user_id    BIGINT PRIMARY KEY,
    started_at DOUBLE PRECISION    NOT NULL,
    until      DOUBLE PRECISION    NOT NULL,
    days       INTEGER NOT NULL CHECK (days > 0),
    year       INTEGER NOT NULL,
    guilds     TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(guilds))  -- the servers it was taken from
);

-- Vacation days taken, per player, server (0: games outside a server) and calendar year (UTC).
CREATE TABLE vacation_days (
    user_id  BIGINT  NOT NULL,
    guild_id BIGINT  NOT NULL,
    year     INTEGER NOT NULL,
    used     INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    PRIMARY KEY (user_id, guild_id, year)
);

-- A server's yearly vacation allowance (/admiralty vacation-days); no row: the default.
CREATE TABLE vacation_allowance (
    guild_id BIGINT PRIMARY KEY,
    days     INTEGER NOT NULL CHECK (days >= 0 AND days <= 366)
);
