"""The game-independent terminal: the play loop, prompts, move lists, help; games draw tables."""
