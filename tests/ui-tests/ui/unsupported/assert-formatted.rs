use stackgrad::differentiable;

// An assert's message with format arguments: one error (a literal message is taken).
#[differentiable]
fn f(x: &[f64; 3], n: usize) -> f64 {
    assert!(n < 3, "n = {} is past the end", n);
    x[n] * x[n]
}

fn main() {}
