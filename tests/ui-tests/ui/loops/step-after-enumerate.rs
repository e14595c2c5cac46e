use stackgrad::differentiable;

// `.step_by(..)` of a computed step after `.enumerate()` (of a name or a literal it is taken
// there): one error that says where it goes.
#[differentiable]
fn f(x: &[f64; 4], n: usize) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate().step_by(n + 1) {
        s += (i as f64) * v;
    }
    s
}

// `.skip(k)` there reads the array again at each step: not where the loop's names index it
// (the counter names the row), nor where the body assigns its index. One error each.
#[differentiable]
fn rows(m: &[[f64; 3]; 3]) -> f64 {
    let r = 2;
    let mut s = 0.0;
    for (r, x) in m[r].iter().enumerate().skip(1) {
        s += (r as f64) * x;
    }
    let mut q = 0;
    for (i, &v) in m[q].iter().enumerate().skip(1) {
        s += v * (i as f64);
        q = 1;
    }
    s + (q as f64)
}

fn main() {}
