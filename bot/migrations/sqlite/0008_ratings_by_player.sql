-- 0008: a player's ratings in every server (/stats in a DM: bot/storage/mygames.py, rated_guilds) read
-- through an index instead of the whole ratings table (its key starts with the server).

CREATE INDEX ratings_player ON ratings (player, guild_id);
