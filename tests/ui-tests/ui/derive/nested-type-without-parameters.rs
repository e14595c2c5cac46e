use stackgrad::Parameters;

struct NotParameters {
    w: [f32; 2],
}

#[derive(Parameters)]
#[parameters(crate = "autodiff_runtime")]
struct Model {
    layer: NotParameters,
    b: f32,
}

fn main() {}
