-- The server's floor under Casino 21's min_bet (/bank setup min_casino21_bet): a table may
-- not open with a smaller minimum bet. The bank-bust bonus is a fixed 5 by default, half of
-- a bet of 10; at a bet of 1 it paid players about +54 % of their stakes from the
-- treasury. Open tables keep the options they opened with.
ALTER TABLE bank_guilds ADD COLUMN min_casino21_bet INTEGER NOT NULL DEFAULT 10
    CHECK (min_casino21_bet >= 1);
