/// A call through a module path, early returns in an `if` chain, and `if` as a value.
#[differentiable]
pub fn branches(x: f64, y: f64) -> f64 {
    let a = inner::g(x) * y;
    if a > 1.0 {
        return a.sqrt();
    } else if a < -1.0 {
        let b = a * a;
        return b;
    }
    let c = if y > 0.0 { y.exp() } else { -y };
    c * a
}
