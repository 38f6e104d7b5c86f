-- Limits on the table options that commit the casino's money, set per guild by the
-- server's admins (/bank setup): a host cannot open a table above them. The defaults are
-- the documented defaults of the options (docs/RULES.md).
--   max_welcome_stake    Casino 21 welcome_stake: house -> seat, once per player per table
--   max_guarantee_fund   Sept et demi guarantee_fund: house -> the table's fund
--   max_bank_bust_bonus  Casino 21 fixed bank_bust_bonus: house -> seat, per hand
ALTER TABLE bank_guilds ADD COLUMN max_welcome_stake INTEGER NOT NULL DEFAULT 100
    CHECK (max_welcome_stake >= 0);
ALTER TABLE bank_guilds ADD COLUMN max_guarantee_fund INTEGER NOT NULL DEFAULT 500
    CHECK (max_guarantee_fund >= 0);
ALTER TABLE bank_guilds ADD COLUMN max_bank_bust_bonus INTEGER NOT NULL DEFAULT 5
    CHECK (max_bank_bust_bonus >= 0);
