"""Players' statistics (issue 39.3-4): per-round results written with the settling move
(``results``), read by the stats service (``service``, queries in ``store``), and the
bankroll chart (``chart``)."""
