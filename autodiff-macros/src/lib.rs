//! The `#[differentiable]` attribute: compile-time reverse-mode differentiation of Rust functions.
//!
//! Only this file touches `proc_macro`; every pass works on `proc_macro2`. The passes, a module
//! each: `args` (the attribute's arguments) -> `lower` (syn -> IR, types and loop bounds) ->
//! `analysis` (activity, reaching definitions) -> `plan` (how each value the reverse sweep reads
//! gets there: the tape plan) -> `forward` and `reverse` (the two sweeps, both reading the plan),
//! `tangent` (forward mode, `f_jvp`: the primal printed by `forward` with tangents beside it, a
//! loop nest split in two where its tangents read nothing it writes) ->
//! `items` (the generated items), driven by `expand`. Besides each pass's unit tests, the
//! output is checked by golden expansions (`tests/expand/`), the workspace's gradient and ui
//! tests, and the generated-program test (`genprog`).
//! Use the macro through the `stackgrad` crate, whose documentation explains the generated API.

// The pipeline, in order; each pass imports only earlier ones and the shared leaves.
mod analysis;
mod args;
mod contract;
mod expand;
mod forward;
mod fused;
mod hvp;
mod items;
mod jacobian;
mod jacobian_tuple;
mod lower;
mod methods;
mod nested;
mod plan;
mod reverse;
mod tangent;

// Shared leaves: the IR, its walks, indices as functions of a loop's variable, names of
// generated items, the user's lint allowances, printing, derivative rules, the tape layout.
mod affine;
mod attrs;
mod ir;
mod names;
mod print;
mod rules;
mod tape;
mod types;
mod walk;

use proc_macro::TokenStream;

/// (The attribute is implemented in the `autodiff-macros` crate; its reference, with an example
/// per feature, is the documentation of `stackgrad::differentiable`, whose doctests need the
/// runtime this crate does not depend on.)
#[proc_macro_attribute]
pub fn differentiable(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(attr.into(), item.into()).into()
}

mod params;

/// Implements `Parameters` for a struct of floats, arrays and nested parameter structs.
///
/// Use it through the `stackgrad` crate (`stackgrad::Parameters`), whose documentation has
/// examples. `#[parameters(crate = "path")]` names the runtime when it is not
/// `::stackgrad::runtime`; `#[parameters(skip)]` on a field leaves it out. It also implements
/// `Default` as the all-zero value (any size, also for const-generic structs whose arrays are
/// longer than 32, the gradient buffer `f_grad` needs); `#[parameters(no_default)]` leaves
/// `Default` to a hand-written impl.
#[proc_macro_derive(Parameters, attributes(parameters))]
pub fn derive_parameters(input: TokenStream) -> TokenStream {
    params::derive(input.into()).into()
}
