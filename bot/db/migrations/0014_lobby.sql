-- Private tables and table history (issue 39).
--
-- table_invites: the members a private table's host invited (/table invite), written in
-- the transaction of the invite; the host is always allowed and is not stored.
CREATE TABLE table_invites (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

-- table_rounds: each settled round's public summary as the table posted it, in every
-- language the bot speaks ({"en": ..., "fr": ...}, cards as text), written in the
-- round-settling transaction (/table history reads the last ones).
CREATE TABLE table_rounds (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    round    INTEGER NOT NULL,
    summary  TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, round)
);

-- table_decks: every deck a table shuffled (its public commitment, first written in the
-- move that committed it), the first and last rounds it dealt, and its seed once revealed
-- (written in the move that revealed it). A deck shuffled before this level gets its row
-- at its reveal, its first round unknown (NULL).
CREATE TABLE table_decks (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    commitment  TEXT NOT NULL,
    deck        TEXT NOT NULL,
    first_round INTEGER,
    last_round  INTEGER,
    seed        TEXT,
    PRIMARY KEY (table_id, commitment)
);

-- /table history in a closed table's thread finds the last table of the channel
CREATE INDEX tables_channel ON tables (channel_id, id);
