use stackgrad::differentiable;

// A closure used otherwise than called or passed on: one error.
#[differentiable]
fn aliased(x: f64) -> f64 {
    let c = |v: f64| v * 2.0;
    let d = c;
    d(x)
}

// `return` in a closure: one error, its calls none.
#[differentiable]
fn returns(x: f64) -> f64 {
    let c = |v: f64| {
        if v > 0.0 {
            return v;
        }
        v * 2.0
    };
    c(x) + c(2.0 * x)
}

// An integer closure with statements, called in an index with a computed argument.
#[differentiable]
fn index(x: [f64; 4], i: usize) -> f64 {
    let at = |k: usize| {
        let j = k + 1;
        j * 2
    };
    x[at(i + 0)]
}

// A literal for a parameter without a type: Rust types it by the closure's other uses.
#[differentiable]
fn untyped(x: [f64; 3]) -> f64 {
    let half = |v| v / 2.0;
    half(x[0]) + half(3.0)
}

fn main() {}
