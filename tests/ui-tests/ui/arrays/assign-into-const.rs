#![allow(const_item_mutation)] // rustc warns about the user's own line too
use stackgrad::differentiable;

const A: [f64; 2] = [1.0, 2.0];

#[differentiable]
fn f(x: f64) -> f64 {
    A[0] = x;
    A[1] * x
}

fn main() {}
