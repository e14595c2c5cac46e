//! Seeds the runtime's initializers and batch shuffling through `stackgrad::rand`, with
//! `stackgrad` as the only dependency.

#[cfg(test)]
mod tests {
    use stackgrad::Parameters;
    use stackgrad::rand::rngs::SmallRng;
    use stackgrad::rand::{Rng, SeedableRng};
    use stackgrad::runtime::init;

    #[derive(Parameters, Debug, PartialEq)]
    struct Layer {
        w: [[f32; 4]; 3],
        b: [f32; 3],
    }

    fn seeded(seed: u64) -> Layer {
        let mut layer = Layer::default();
        let mut rng = SmallRng::seed_from_u64(seed);
        init::xavier_uniform(
            layer.w.as_flattened_mut(),
            init::fans(&[3, 4]),
            1.0,
            &mut rng,
        );
        init::normal(&mut layer.b, 0.0, 0.1, &mut rng);
        layer
    }

    #[test]
    fn initializers_take_the_reexported_generators() {
        let (a, b, c) = (seeded(7), seeded(7), seeded(8));
        assert_eq!(a, b, "the same seed gives the same bits");
        assert_ne!(a, c);
        let bound = (6.0f32 / 7.0).sqrt();
        assert!(
            a.w.as_flattened()
                .iter()
                .all(|x| x.abs() <= bound && *x != 0.0)
        );
        // The generator is usable as any `rand` 0.8 generator.
        let x: f64 = SmallRng::seed_from_u64(1).gen_range(0.0..1.0);
        assert!((0.0..1.0).contains(&x));
        // And it is the runtime's `rand`: the same path under `runtime`.
        let mut r = stackgrad::runtime::rand::rngs::SmallRng::seed_from_u64(7);
        let mut w = [[0.0f32; 4]; 3];
        init::xavier_uniform(w.as_flattened_mut(), init::fans(&[3, 4]), 1.0, &mut r);
        assert_eq!(w, a.w);
    }
}
