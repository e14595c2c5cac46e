use stackgrad::differentiable;

// A name the closure reads bound again before the call: the call would read the new one.
#[differentiable]
fn rebound(x: f64) -> f64 {
    let k = 2.0;
    let c = |v: f64| v * k;
    let k = 3.0;
    c(x) + k
}

// The same through a loop's counter, and a closure's parameter.
#[differentiable]
fn counter(x: [f64; 3]) -> f64 {
    let i = 1;
    let c = |v: f64| v * x[i];
    let mut s = 0.0;
    for i in 0..3 {
        s += c(x[i]);
    }
    s + x.map(|i| c(i))[0]
}

// A `move` closure keeps its copy of `k`, which the function then assigns.
#[differentiable]
fn moved(x: f64) -> f64 {
    let mut k = 2.0;
    let c = move |v: f64| v * k;
    k += 1.0;
    c(x) + k
}

// The same for a closure passed on by name.
#[differentiable]
fn passed(x: [f64; 3]) -> f64 {
    let k = 2.0;
    let c = |v: f64| v * k;
    let k = 1.0;
    x.map(c)[0] + k
}

// A `move` closure's copy of an array the function rearranges in place.
#[differentiable]
fn moved_array(x: f64) -> f64 {
    let mut h = [x, 2.0 * x];
    let c = move || h[0];
    h.swap(0, 1);
    c()
}

fn main() {}
