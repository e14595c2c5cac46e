use stackgrad::differentiable;

// `mem::swap` of an element at a computed index (read twice by the rewrite, once by Rust):
// one error that says to bind the index first.
#[differentiable]
fn f(x: [f64; 3], i: usize) -> f64 {
    let mut a = x;
    let mut t = 0.5;
    core::mem::swap(&mut a[i + 1], &mut t);
    a[0] + t
}

fn main() {}
