#[differentiable(jvp)]
fn spread(r: f64, t: f64) -> f64 {
    let (a, b) = polar(r, t);
    let w = [a, b];
    let (_, v): (f64, [f64; 2]) = stats(&w);
    a * v[0] + b * v[1]
}
