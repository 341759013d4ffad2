"""The rules core: the game protocol, chance, records and errors. Pure: no I/O, no clock."""
