use stackgrad::differentiable;

#[derive(Clone, Debug, Default)]
pub struct Lin {
    pub w: [f64; 2],
}

#[derive(Clone, Debug, Default)]
pub struct Sample {
    pub x: [f64; 2],
    pub y: f64,
}

#[derive(Clone, Debug, Default)]
pub struct Pair {
    pub first: Sample,
    pub second: Sample,
}

// `predict` does not differentiate its `Sample`, so its tangent program takes a zero one, which
// `loss` can pass on only from a `Sample` parameter of its own, not from a field of one.
#[differentiable(hvp)]
impl Lin {
    #[wrt(self)]
    pub fn predict(&self, d: &Sample) -> f64 {
        self.w[0] * d.x[0] + self.w[1] * d.x[1]
    }

    #[wrt(self)]
    pub fn loss(&self, p: &Pair) -> f64 {
        let e = self.predict(&p.first) - p.first.y;
        e * e
    }
}

fn main() {}
