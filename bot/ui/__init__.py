"""Discord rendering: embeds, card text, views and dynamic buttons, translations."""
