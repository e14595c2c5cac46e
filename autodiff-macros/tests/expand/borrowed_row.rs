/// A row bound by reference (`let row = &m[i];`) and passed on to a callee that takes a
/// reference: the alias is the place `m[i]`, passed as `&m[i]`.
#[differentiable]
pub fn borrowed_row(m: &[[f64; 2]; 3], v: &[f64; 2]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let row = &m[i];
        s += dot(row, v) * row[0];
    }
    s
}
