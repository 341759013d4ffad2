//! PLACEHOLDER: games played end to end between native agents.
