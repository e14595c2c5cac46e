//! The evals this tool implements, each a module of `#[differentiable]` functions written as the
//! eval's README describes the computation.

pub mod ba;
mod descent;
pub mod det;
pub mod gmm;
mod hello;
pub mod ht;
pub mod kmeans;
mod llsq;
pub mod lse;
pub mod lstm;
pub mod ode;
pub mod particle;
pub mod saddle;

use std::time::Duration;

use serde_json::Value;

/// The modules `define` accepts.
pub const MODULES: &[&str] = &[
    "ba", "det", "gmm", "hello", "ht", "kmeans", "llsq", "lse", "lstm", "ode", "particle", "saddle",
];

/// Runs `function` of `module` on `input`: its output and the time of each run.
pub fn evaluate(
    module: &str,
    function: &str,
    input: &Value,
) -> Result<(Value, Vec<Duration>), String> {
    match module {
        "ba" => ba::evaluate(function, input),
        "det" => det::evaluate(function, input),
        "gmm" => gmm::evaluate(function, input),
        "hello" => hello::evaluate(function, input),
        "ht" => ht::evaluate(function, input),
        "kmeans" => kmeans::evaluate(function, input),
        "llsq" => llsq::evaluate(function, input),
        "lse" => lse::evaluate(function, input),
        "lstm" => lstm::evaluate(function, input),
        "ode" => ode::evaluate(function, input),
        "particle" => particle::evaluate(function, input),
        "saddle" => saddle::evaluate(function, input),
        _ => Err(format!("no module `{module}` in stackgrad's tool")),
    }
}

/// The error for a function a module does not have.
fn unknown(module: &str, function: &str) -> String {
    format!("module `{module}` has no function `{function}`")
}
