use stackgrad::differentiable;

// `matches!` on a tuple written out takes what a `match` on it takes: one error, on the
// pattern it does not.
#[differentiable]
fn f(x: f64, i: usize, j: usize) -> f64 {
    if matches!((i, &j), (0, &1) | (1, _)) { x } else { x * x }
}

fn main() {}
