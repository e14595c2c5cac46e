use stackgrad::differentiable;

// `mem::swap` of an element whose index assigns (the rewrite reads the place again, binding
// computed indices first, which would move the assignment): one error that says to bind it
// first. A place that is not one (a temporary) is the same error.
#[differentiable]
fn f(x: [f64; 3], mut i: usize) -> f64 {
    let mut a = x;
    let mut t = 0.5;
    core::mem::swap(
        &mut a[{
            i += 1;
            i
        }],
        &mut t,
    );
    core::mem::swap(&mut t, &mut a[0].max(1.0));
    a[0] + t
}

// The same for the methods: a receiver whose index assigns, an argument that assigns, a
// sub-slice.
#[differentiable]
fn g(x: [f64; 3], mut k: usize) -> f64 {
    let mut m = [x, x];
    m[1][1..].reverse();
    m[{
        k += 1;
        k
    }]
    .swap(0, 1);
    let mut j = 0;
    m[0].swap(
        {
            j += 1;
            j
        },
        2,
    );
    m[0][0] + m[1][2]
}

fn main() {}
