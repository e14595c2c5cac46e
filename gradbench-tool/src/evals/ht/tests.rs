//! `ht`'s unit tests: the bones' transforms against the reference's 4 x 4 chain, and the
//! compressed sweeps against a lane per column.

use super::*;

/// The first simple instance of ADBench's small hand model (the repo's copy), `complicated`
/// with each point bound to a triangle at seeded barycentric coordinates instead.
fn hand1(complicated: bool) -> Problem {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/adbench/ht"));
    let mut input =
        crate::adbench::ht_input(&dir.join("model"), &dir.join("hand1_t26_c100.txt"), false)
            .unwrap();
    if complicated {
        let n = input["data"]["points"].as_array().unwrap().len();
        let corr: Vec<usize> = (0..n).map(|i| (i * 37) % 1084).collect();
        let us: Vec<[f64; 2]> = (0..n)
            .map(|i| [0.1 + 0.003 * i as f64, 0.4 - 0.002 * i as f64])
            .collect();
        input["data"]["correspondences"] = json!(corr);
        input["us"] = json!(us);
    }
    Problem::read(&input).unwrap()
}

/// The bones' transforms of rigid 3 x 4 products against the reference's 4 x 4 chain
/// (`cpp/gradbench/evals/ht.hpp`: `relative = base_relative * euler`, `absolute =
/// absolute(parent) * relative`, `absolute * inverse_base_absolute`), written here with
/// whole 4 x 4 matrices, at hand1's pose and at a pose with every angle moved.
#[test]
fn bone_transforms_match_the_references_4x4_products() {
    let pb = hand1(false);
    let m = &pb.model;
    let mul = |a: &[f64; 16], b: &[f64; 16]| -> [f64; 16] {
        std::array::from_fn(|k| (0..4).map(|l| a[4 * (k / 4) + l] * b[4 * l + k % 4]).sum())
    };
    let mut moved = pb.theta;
    for (i, t) in moved.iter_mut().enumerate().skip(6) {
        *t += 0.3 * (i as f64).sin();
    }
    for theta in [pb.theta, moved] {
        let got = bone_transforms(&theta, m.parents.len(), &m.parents, &m.base_rel, &m.inv_abs);
        let mut absolute: Vec<[f64; 16]> = Vec::new();
        for (b, got) in got.iter().enumerate().take(m.parents.len()) {
            // Angles (x, z, y) per bone, as `bone_transforms` reads them from theta.
            let mut angle = [0.0; 3];
            let finger = (2..22).contains(&b).then(|| ((b - 2) / 4, (b - 2) % 4));
            match finger {
                Some((f, 0)) => angle[..2].copy_from_slice(&theta[6 + 4 * f..8 + 4 * f]),
                Some((f, j @ 1..=2)) => angle[0] = theta[7 + 4 * f + j],
                _ => {}
            }
            let (x, z, y) = (angle[0], angle[1], angle[2]);
            // The rotation by `a` in the plane of axes `i` and `j`, the identity elsewhere.
            let about = |i: usize, j: usize, a: f64| -> [f64; 16] {
                let mut r: [f64; 16] = std::array::from_fn(|k| f64::from(k % 5 == 0));
                (r[5 * i], r[4 * i + j], r[4 * j + i], r[5 * j]) =
                    (a.cos(), -a.sin(), a.sin(), a.cos());
                r
            };
            let (rx, ry, rz) = (about(1, 2, x), about(2, 0, y), about(0, 1, z));
            let relative = mul(&m.base_rel[b], &mul(&rz, &mul(&ry, &rx)));
            let abs = match m.parents[b] {
                p if p < 0 => relative,
                p => mul(&absolute[p as usize], &relative),
            };
            absolute.push(abs);
            let want = mul(&abs, &m.inv_abs[b]);
            for k in 0..12 {
                assert!((got[k] - want[k]).abs() < 1e-12, "bone {b}, entry {k}");
            }
        }
    }
}

/// The columns of a variant's rows.
fn width(complicated: bool) -> usize {
    if complicated { 28 } else { 26 }
}

/// The rows of two Jacobians of one variant, equal to rounding.
fn same(a: &Rows, b: &Rows) {
    let rows = |r: &Rows| -> Vec<Vec<f64>> {
        (r.simple.iter().map(|r| r.to_vec()))
            .chain(r.complicated.iter().map(|r| r.to_vec()))
            .collect()
    };
    let (a, b) = (rows(a), rows(b));
    assert_eq!((a.len(), b.len()), (300, 300));
    for (a, b) in a.iter().zip(&b) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() <= 1e-12 * y.abs().max(1.0), "{a:?}\n{b:?}");
        }
    }
}

/// The compressed sweeps (the finger columns in 4 lanes for the vertices, 6 for the
/// triangles, on ADBench's hand) give the Jacobian of the sweeps of a lane per finger
/// column, so does a mirrored model (both sweeps share the global columns' lanes and the
/// scatter to columns, which the protocol tests check against central differences). The
/// simple variant's rows in order (past [`BY_VERTEX`] bytes of rows: the points twenty
/// times over) and by blocks (175 times: past [`BY_BLOCKS`] points a vertex) are its
/// rows vertex by vertex. The rows are overwritten in place: a
/// Jacobian into the rows of a larger one is the same as into new rows.
#[test]
fn compressed_sweeps_match_a_lane_per_column() {
    for (complicated, mirrored) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut p = hand1(complicated);
        p.model.mirrored = mirrored;
        assert_eq!(p.compression.lanes, if complicated { 6 } else { 4 });
        let mut rows = Rows::default();
        p.jacobian(&mut rows);
        let compressed = std::mem::replace(&mut p.compression, Compression::identity());
        let mut dense = Rows::default();
        p.jacobian(&mut dense);
        same(&rows, &dense);
        p.compression = compressed;
        // Twenty times the points: past BY_VERTEX; 175 times: past BY_BLOCKS points a vertex.
        let nv = p.model.positions.len();
        let mut larger = p.clone();
        // The complicated variant has one path in order: once is enough.
        for copies in [20, 175].into_iter().filter(|&c| !complicated || c == 20) {
            larger = p.clone();
            for _ in 1..copies {
                larger.points.extend_from_slice(&p.points);
                larger.correspondences.extend_from_slice(&p.correspondences);
                larger.us.extend_from_slice(&p.us);
            }
            assert!(300 * copies * width(complicated) * 8 > BY_VERTEX);
            assert_eq!(100 * copies >= BY_BLOCKS * nv, copies == 175);
            assert!(!complicated || copies == 20);
            let mut many = Rows::default();
            larger.jacobian(&mut many);
            for (k, row) in many.simple.iter().enumerate() {
                assert_eq!(row, &rows.simple[k % 300], "row {k}");
            }
            for (k, row) in many.complicated.iter().enumerate() {
                assert_eq!(row, &rows.complicated[k % 300], "row {k}");
            }
            assert_eq!(many.simple.len() + many.complicated.len(), 300 * copies);
        }
        // Into the rows of a Jacobian of more points, of other values, every entry NaN:
        // each is written again.
        larger.theta[7] += 0.5;
        larger.jacobian(&mut dense);
        dense.simple.iter_mut().for_each(|r| r.fill(f64::NAN));
        dense.complicated.iter_mut().for_each(|r| r.fill(f64::NAN));
        p.jacobian(&mut dense);
        same(&rows, &dense);
    }
}
