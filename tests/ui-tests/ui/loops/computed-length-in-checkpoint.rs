use stackgrad::differentiable;

#[differentiable]
fn features<const N: usize>(a: &[f64; N], x: f64) -> [f64; 3] {
    [a[0] * x, a[0] + x, x.sin()]
}

// `y`'s length is computed from `N` through `features`'s contract: the loop over it runs over a
// run-time length, which the checkpointed loop around it cannot hold.
#[differentiable]
fn f<const N: usize>(a: [f64; N], x: f64) -> f64 {
    let mut s = x;
    #[checkpoint]
    for _ in 0..4 {
        let y = features(&a, s);
        for e in y.iter() {
            s = (s * e).tanh();
        }
    }
    s
}

fn main() {}
