// A type alias of an array: the macro sees only the function, so it takes `Vec3` for a struct.
// One error where it is indexed, saying to write the array type; one on an aliased return type.
use stackgrad::differentiable;

pub type Vec3 = [f64; 3];

#[differentiable]
pub fn norm2(x: &Vec3) -> f64 {
    x[0] * x[0] + x[1] * x[1] + x[2] * x[2]
}

#[differentiable]
pub fn scale(x: &[f64; 3], s: f64) -> Vec3 {
    [x[0] * s, x[1] * s, x[2] * s]
}

fn main() {}
