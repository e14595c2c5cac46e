use stackgrad::Parameters;

#[derive(Parameters)]
enum Layer {
    Dense([f32; 4]),
}

#[derive(Parameters)]
struct Pair(f32, f32);

#[derive(Parameters)]
struct Empty {}

fn main() {}
