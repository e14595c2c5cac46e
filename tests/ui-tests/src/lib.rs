//! Nothing but tests: see `tests/ui.rs` (every rejected construct gets one clear error on the
//! user's span) and the `ui/` directory.
