"""Pure rules engine: cards, shuffles and the four games. Standard library only."""
