//! `#[derive(Parameters)]` against the trait: counts, names, shapes, tensor order, zeroing, and
//! generic and hygiene cases.

use autodiff_macros::Parameters;
use autodiff_runtime::Parameters;

#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct LayerNorm {
    g: [f32; 4],
    b: [f32; 4],
}

#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Block {
    ln1: LayerNorm,
    w: [[f32; 4]; 4],
    scale: f32,
}

#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Model {
    embed: [[[f32; 2]; 3]; 2],
    blocks: [Block; 4],
    grid: [[LayerNorm; 2]; 3],
    r#type: f32,
}

/// (name, shape) of every tensor, in visiting order.
fn layout<P: Parameters>(p: &P) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    p.for_each_tensor(|name, shape, values| {
        assert_eq!(
            values.len(),
            shape.iter().product::<usize>(),
            "{name}: shape {shape:?} vs {} values",
            values.len()
        );
        out.push((name.to_string(), shape.to_vec()));
    });
    out
}

fn expected_model_layout() -> Vec<(String, Vec<usize>)> {
    let mut want = vec![("embed".to_string(), vec![2, 3, 2])];
    for i in 0..4 {
        want.push((format!("blocks.{i}.ln1.g"), vec![4]));
        want.push((format!("blocks.{i}.ln1.b"), vec![4]));
        want.push((format!("blocks.{i}.w"), vec![4, 4]));
        want.push((format!("blocks.{i}.scale"), vec![]));
    }
    for i in 0..3 {
        for j in 0..2 {
            want.push((format!("grid.{i}.{j}.g"), vec![4]));
            want.push((format!("grid.{i}.{j}.b"), vec![4]));
        }
    }
    want.push(("type".to_string(), vec![]));
    want
}

#[test]
fn counts_names_and_shapes() {
    // embed 12, blocks 4 * (8 + 16 + 1), grid 6 * 8, type 1.
    assert_eq!(Model::COUNT, 12 + 100 + 48 + 1);
    assert_eq!(Model::TENSORS, 1 + 16 + 12 + 1);
    assert_eq!(Block::COUNT, 25);
    let model = Model::zeroed();
    assert_eq!(layout(&model), expected_model_layout());
}

#[test]
fn tensor_index_matches_visiting_order_and_fields() {
    let mut model = Model::zeroed();
    // Fill tensor k with the value k, through tensor_mut.
    for k in 0..Model::TENSORS {
        let t = model
            .tensor_mut(k)
            .unwrap_or_else(|| panic!("tensor {k} missing"));
        t.fill(k as f32);
    }
    assert!(model.tensor(Model::TENSORS).is_none());
    assert!(model.tensor_mut(Model::TENSORS).is_none());
    // The fields, read directly, hold the numbers of their position in expected_model_layout().
    assert_eq!(model.embed, [[[0.0; 2]; 3]; 2]);
    assert_eq!(model.blocks[0].ln1.g, [1.0; 4]);
    assert_eq!(model.blocks[0].w, [[3.0; 4]; 4]);
    assert_eq!(model.blocks[3].ln1.g, [13.0; 4]);
    assert_eq!(model.blocks[3].scale, 16.0);
    assert_eq!(model.grid[0][0].g, [17.0; 4]);
    assert_eq!(model.grid[0][1].b, [20.0; 4]);
    assert_eq!(model.grid[2][1].b, [28.0; 4]);
    assert_eq!(model.r#type, 29.0);
    // visit sees the same slices in the same order as tensor(k).
    let mut k = 0;
    model.for_each_tensor(|name, _, values| {
        let t = model.tensor(k).unwrap();
        assert_eq!(
            (t.as_ptr(), t.len()),
            (values.as_ptr(), values.len()),
            "tensor {k} is not `{name}`"
        );
        k += 1;
    });
    assert_eq!(k, Model::TENSORS);
    let mut sum = 0.0;
    model
        .clone()
        .for_each_tensor_mut(|_, _, values| sum += values.iter().sum::<f32>());
    assert_eq!(
        f64::from(sum),
        (0..Model::TENSORS)
            .map(|k| (k * model.tensor(k).unwrap().len()) as f64)
            .sum::<f64>()
    );
    model.zero();
    assert_eq!(model, Model::zeroed());
}

#[test]
fn update_helpers_walk_every_scalar() {
    let mut p = Block::zeroed();
    let mut g = Block::zeroed();
    g.for_each_mut(|x| *x = 2.0);
    p.zip_mut(&g, |p, g| *p -= 0.5 * g);
    assert_eq!(p.ln1.b, [-1.0; 4]);
    assert_eq!(p.w, [[-1.0; 4]; 4]);
    assert_eq!(p.scale, -1.0);
    assert_eq!(p.sum_of_squares(), 25.0);
    let mut q = Block::zeroed();
    q.copy_from(&p);
    assert_eq!(q, p);
}

/// A generic layer: the float type and sizes are parameters.
#[derive(Parameters, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Linear<F, const I: usize, const O: usize> {
    w: [[F; I]; O],
    b: [F; O],
}

/// Scalar type taken from the nested layers; a skipped marker field.
#[derive(Parameters, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Mlp<F> {
    l1: Linear<F, 3, 5>,
    l2: Linear<F, 5, 2>,
    #[parameters(skip)]
    steps_seen: core::marker::PhantomData<u64>,
}

#[test]
fn generic_structs_and_skipped_fields() {
    assert_eq!(<Mlp<f64> as Parameters>::COUNT, 15 + 5 + 10 + 2);
    let mut mlp = Mlp::<f64>::zeroed();
    mlp.l2.b = [1.5, 2.5];
    let names: Vec<_> = layout(&mlp);
    assert_eq!(
        names,
        [
            ("l1.w".to_string(), vec![5, 3]),
            ("l1.b".to_string(), vec![5]),
            ("l2.w".to_string(), vec![2, 5]),
            ("l2.b".to_string(), vec![2]),
        ]
    );
    assert_eq!(mlp.tensor(3), Some(&[1.5, 2.5][..]));
    let single: Linear<f32, 1, 1> = Linear::zeroed();
    assert_eq!(
        single,
        Linear {
            w: [[0.0]],
            b: [0.0]
        }
    );
}

/// The generated code names only `::core` and the runtime path, and its locals are hygienic:
/// shadowing `core`, `Option` and `Some` and naming fields like its locals changes nothing.
mod hygiene {
    #![allow(dead_code, non_camel_case_types)]
    use autodiff_macros::Parameters;

    mod core {}
    struct Option;
    struct Some;
    struct usize;

    #[derive(Parameters)]
    #[parameters(crate = "autodiff_runtime")]
    pub struct Tricky {
        pub index: f64,
        pub prefix: [f64; 2],
        pub visitor: [[f64; 1]; 1],
        pub inner: [super::Linear<f64, 1, 1>; 2],
    }

    #[test]
    fn locals_do_not_clash_with_fields() {
        use autodiff_runtime::Parameters as _;
        let mut t = Tricky::zeroed();
        t.inner[1].b = [7.0];
        assert_eq!(<Tricky as autodiff_runtime::Parameters>::TENSORS, 7);
        assert_eq!(t.tensor(6), ::core::option::Option::Some(&[7.0][..]));
        let mut names = std::vec::Vec::new();
        t.for_each_tensor(|name, _, _| names.push(name.to_string()));
        assert_eq!(
            names,
            [
                "index",
                "prefix",
                "visitor",
                "inner.0.w",
                "inner.0.b",
                "inner.1.w",
                "inner.1.b"
            ]
        );
    }
}
