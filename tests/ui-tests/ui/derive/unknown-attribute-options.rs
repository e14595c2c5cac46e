use stackgrad::Parameters;

#[derive(Parameters)]
#[parameters(krate = "autodiff_runtime")]
struct A {
    #[parameters(ignore)]
    w: f32,
}

fn main() {}
