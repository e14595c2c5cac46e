use stackgrad::Parameters;

#[derive(Parameters)]
#[parameters(crate = "autodiff_runtime")]
struct Model {
    w: [[f32; 3]; 2],
    names: [Vec<f32>; 2],
    scale: &'static f32,
    pair: (f32, f32),
    steps: usize,
}

fn main() {}
