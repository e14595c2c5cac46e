/// `match` becomes an `if` chain: the reverse sweep takes the same arm, read again from `i`.
#[differentiable]
pub fn matching(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s = match i % 3 {
            0 => s + x[i],
            1 | 2 => s * x[i],
            _ => s,
        };
    }
    s
}
