//! Awimbawé's search hints (the mirror of `bots/__init__.py`'s `SEARCH`): the playout cut-off
//! between rounds ([`evaluate`]). The book of set moves reads views and stays in Python; there
//! is no playout policy (playouts are random).

pub mod evaluate;
