-- The last language Discord gave for each user (an interaction's locale): what a DM sent
-- with no interaction at hand (a timer, another player's move) is written in when the
-- user chose none with /language. Written only when it changes. (PostgreSQL: 64-bit ids.)
CREATE TABLE user_locales (
    user_id BIGINT PRIMARY KEY,
    locale  TEXT NOT NULL
);
