// `predict` is differentiated in `self` alone (a method's default), but `loss_in_x` passes it
// an input that carries a derivative: one error at the call, naming the parameter.
use stackgrad::differentiable;

#[derive(Default)]
pub struct Linear {
    pub w: [f64; 2],
}

#[differentiable]
impl Linear {
    pub fn predict(&self, x: &[f64; 2]) -> f64 {
        self.w[0] * x[0] + self.w[1] * x[1]
    }

    #[wrt(self, x)]
    pub fn loss_in_x(&self, x: &[f64; 2]) -> f64 {
        let p = self.predict(x);
        p * p
    }
}

fn main() {}
