use stackgrad::differentiable;

// A `Vec` local is read by index: its sub-slice, iterated and measured, is one error.
#[differentiable]
fn tail_sum(x: &[f64], n: usize) -> f64 {
    let mut h = vec![0.0; n];
    for i in 0..n {
        h[i] = x[i] * x[i];
    }
    let mut s = h[1..].len() as f64;
    for v in h[1..].iter() {
        s += v;
    }
    s
}

// A sub-slice of one: the same one error.
#[differentiable]
fn head_sum(x: &[f64], n: usize) -> f64 {
    let mut h = vec![0.0; n];
    for i in 0..n {
        h[i] = x[i] * x[i];
    }
    let mut s = h[1..][..2].len() as f64;
    for v in h[1..][..2].iter() {
        s += v;
    }
    s
}

fn main() {}
