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

// The same for the methods: a receiver at a computed index, an argument that assigns.
#[differentiable]
fn g(x: [f64; 3], k: usize) -> f64 {
    let mut m = [x, x];
    m[k + 1].swap(0, 1);
    let mut j = 0;
    m[0].swap(
        {
            j += 1;
            j
        },
        2,
    );
    m[0][0] + m[1][2]
}

fn main() {}
