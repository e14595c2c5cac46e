//! Runtime support for stackgrad: optimizers, initializers, neural-network primitives and data.
//!
//! The core is `#![no_std]`; the `alloc` and `std` features add heap-backed helpers and file I/O.
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;
