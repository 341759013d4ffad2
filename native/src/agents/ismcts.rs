//! PLACEHOLDER: single-observer ISMCTS over any game with a [`crate::core::Kit`].
