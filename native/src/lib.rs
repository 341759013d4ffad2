//! spieltisch's native rules core: the four games' rules in Rust, mirroring
//! `spieltisch/games/<game>/` module by module, with random playouts inside Rust and (with the
//! `python` feature) the extension module `spieltisch._native` that `spieltisch.native` drives.
//! The Python engine stays the reference: an agreement test steps both side by side.

pub mod agents;
pub mod core;
pub mod games;

#[cfg(feature = "python")]
mod python;
