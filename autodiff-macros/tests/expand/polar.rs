/// A tuple output, `wrt`, an integer parameter, a reassigned parameter and shadowing.
#[differentiable(wrt(r, theta))]
pub fn polar(r: f64, mut theta: f64, turns: i32, scale: f64) -> (f64, f64) {
    theta += core::f64::consts::PI * (turns as f64);
    let r = r * scale;
    (r * theta.cos(), r * theta.sin())
}
