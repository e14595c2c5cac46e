//! The evals of stackgrad's GradBench tool (`evals`) and its side of GradBench's protocol
//! (`protocol`); the binary (`main.rs`) reads the messages on stdin. A library so that the
//! benches (`benches/nested.rs`) run the same functions.

pub mod evals;
pub mod protocol;
