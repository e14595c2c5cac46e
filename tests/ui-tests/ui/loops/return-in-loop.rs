use stackgrad::differentiable;

// A loop inside a block used as a value: `return` there stays an error (one that says how to
// write it); in loops that are statements it is supported.
#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    let s = {
        let mut t = 0.0;
        for i in 0..4 {
            if x[i] > 1.0 {
                return x[i];
            }
            t += x[i];
        }
        t
    };
    s * s
}

fn main() {}
