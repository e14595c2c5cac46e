use stackgrad::differentiable;

const START: i32 = -2;

// An `i32` counter from a `const` the macro cannot see, which may be negative.
#[differentiable]
fn f(x: f64, j: i32) -> f64 {
    let mut s = x;
    for i in START..3 {
        if i < j {
            s *= x;
        }
    }
    s
}

fn main() {}
