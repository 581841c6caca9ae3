-- 0012: languages (issue 21). user_locales: the Discord locale each person last used the bot with
-- (Interaction.locale), for what is sent to them later without an interaction (DMs: alerts, digests);
-- written only when it changes. guild_locales: the language a server chose with /admiralty language
-- for what the whole channel reads; without a row, the server's own (guild_locale) is used.

CREATE TABLE user_locales (
    user_id  BIGINT PRIMARY KEY,
    locale   TEXT    NOT NULL CHECK (length(locale) BETWEEN 2 AND 16)
);

CREATE TABLE guild_locales (
    guild_id BIGINT PRIMARY KEY,
    locale   TEXT    NOT NULL CHECK (length(locale) BETWEEN 2 AND 16)
);
