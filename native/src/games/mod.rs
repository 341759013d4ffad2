//! The four games, one module per game, each mirroring its Python folder.

#[cfg(feature = "auf_die_eier")]
pub mod auf_die_eier;
#[cfg(feature = "auf_die_nuesse")]
pub mod auf_die_nuesse;
#[cfg(feature = "auweier")]
pub mod auweier;
#[cfg(feature = "awimbawe")]
pub mod awimbawe;
