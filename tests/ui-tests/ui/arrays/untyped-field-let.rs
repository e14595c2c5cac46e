use stackgrad::differentiable;

#[derive(Clone, Copy)]
pub struct Layer {
    pub b: [f64; 2],
}

pub struct Params {
    pub w: [[f64; 2]; 3],
    pub layers: [Layer; 2],
}

// A struct's field bound by a `let` without a type: the macro cannot see the field's type.
#[differentiable]
fn row(p: &Params, x: f64) -> f64 {
    let row = p.w[1];
    row[0] * x + row[1]
}

#[differentiable]
fn layer(p: &Params, x: f64) -> f64 {
    let q = p.layers[0];
    q.b[0] * x
}


#[derive(Default)]
pub struct Net {
    pub w: [[f64; 2]; 3],
}

// In a method the message names `self`, as written.
#[differentiable]
impl Net {
    pub fn row(&self, x: f64) -> f64 {
        let row = self.w[1];
        row[0] * x
    }
}

fn main() {}
