use stackgrad::Parameters;

#[derive(Parameters)]
#[parameters(crate = "autodiff_runtime")]
struct Mixed {
    w: [f32; 4],
    b: f64,
}

fn main() {}
