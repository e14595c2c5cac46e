use stackgrad::differentiable;

// A tuple bound to one name is read by field (`t.0`): used whole, it is one error that says
// to bind its values.
#[differentiable]
fn f(x: f64) -> (f64, f64) {
    let t = (x.sin(), 2.0 * x);
    let s = t.0 * t.1;
    if s > 0.5 { t } else { (s, t.1) }
}

fn main() {}
