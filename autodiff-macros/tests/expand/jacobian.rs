#[differentiable(jacobian, wrt(p))]
fn observe(p: &[f64; 3], l: &[f64; 2]) -> [f64; 2] {
    let (dx, dy) = (l[0] - p[0], l[1] - p[1]);
    [(dx * dx + dy * dy).sqrt(), dy.atan2(dx) - p[2]]
}
