/// A model as a struct with methods: `loss` calls `predict`, differentiated in `self` and the
/// input; `loss` in `self` alone.
#[differentiable]
impl Linear {
    #[wrt(self, x)]
    pub fn predict(&self, x: &[f64; 2]) -> f64 {
        self.w[0] * x[0] + self.w[1] * x[1] + self.b
    }

    pub fn loss(&self, x: &[f64; 2], y: f64) -> f64 {
        let e = self.predict(x) - y;
        e * e
    }
}
