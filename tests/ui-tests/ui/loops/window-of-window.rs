use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 6]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(3) {
        for u in w.windows(2) {
            s += u[0] * u[1];
        }
    }
    s
}

fn main() {}
