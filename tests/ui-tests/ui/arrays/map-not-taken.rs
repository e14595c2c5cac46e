use stackgrad::differentiable;

// `map` right of `&&` (which may not run it): one error that says to bind it before (as a
// `let` of its own, an operand, a branch's value or a condition it is taken).
#[differentiable]
fn f(x: &[f64; 3], c: f64) -> f64 {
    if c > 0.0 && x.map(|v| v * c)[1] > 1.0 { x[0] } else { x[2] }
}

// After a block of the same statement that assigns what it reads (Rust runs the block
// first): one error, not the array mapped before the block.
#[differentiable]
fn after_block(x: &[f64; 2]) -> f64 {
    let mut a = [x[0], x[1]];
    let s = {
        a[0] = 3.0 * a[0];
        a[0]
    } + a.map(|v| v * v)[0];
    s
}

// A closure that assigns the array it maps (Rust maps a copy taken before), and an
// attribute on the `let` (the values are the loop's): one error each.
#[differentiable]
fn assigns_its_array(x: &[f64; 2]) -> f64 {
    let mut a = [x[0], x[1]];
    let y = a.map(|v| {
        a[1] = 0.0;
        v
    });
    y[1] + a[1]
}

#[differentiable]
fn recorded(x: &[f64; 2]) -> f64 {
    #[record(f32)]
    let y = x.map(|v| v * v);
    y[1]
}

// A `return` in the closure (which returns from the closure): one error.
#[differentiable]
fn returns_in_closure(x: &[f64; 2]) -> f64 {
    let y = x.map(|v| {
        if v > 1.0 {
            return 1.0;
        }
        v
    });
    y[0] + y[1]
}

fn main() {}
