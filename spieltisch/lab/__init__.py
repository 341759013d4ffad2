"""The simulation lab: play games between agents, many at a time, and summarise them."""
