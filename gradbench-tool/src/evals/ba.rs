//! `ba`: bundle adjustment's residuals and their sparse Jacobian (ADBench's problem). Each
//! observation's reprojection error depends on one camera (11 parameters: a Rodrigues rotation,
//! the centre, the focal length, the principal point, two radial distortion coefficients), one
//! point and one weight: `reprojection` is that block, written as the eval's README describes
//! it, and `reprojection_jacobian` gives its 2 x 15 Jacobian (two reverse sweeps, one per
//! residual). The blocks go into the Jacobian's CSR layout (`3p` rows: the `2p` reprojection
//! rows, then the `p` weight rows; `11n + 3m + p` columns). The input is one camera, point,
//! weight and feature, duplicated into `n` cameras, `m` points and `p` observations as the eval
//! specifies; the duplication is not exploited.

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

/// The reprojection error `w (project(cam, x) - feat)` of one observation.
#[differentiable(jacobian, wrt(cam, x, w))]
pub fn reprojection(cam: &[f64; 11], x: &[f64; 3], w: f64, feat: &[f64; 2]) -> [f64; 2] {
    // The point relative to the camera's centre, rotated by the Rodrigues vector cam[0..3].
    let p = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let sqtheta = cam[0] * cam[0] + cam[1] * cam[1] + cam[2] * cam[2];
    let mut r = [0.0; 3];
    if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let (c, s) = (theta.cos(), theta.sin());
        let k = [cam[0] / theta, cam[1] / theta, cam[2] / theta];
        let cross = [
            k[1] * p[2] - k[2] * p[1],
            k[2] * p[0] - k[0] * p[2],
            k[0] * p[1] - k[1] * p[0],
        ];
        let along = (k[0] * p[0] + k[1] * p[1] + k[2] * p[2]) * (1.0 - c);
        for i in 0..3 {
            r[i] = p[i] * c + cross[i] * s + k[i] * along;
        }
    } else {
        r = [
            p[0] + cam[1] * p[2] - cam[2] * p[1],
            p[1] + cam[2] * p[0] - cam[0] * p[2],
            p[2] + cam[0] * p[1] - cam[1] * p[0],
        ];
    }
    // Perspective division, radial distortion, focal length and principal point.
    let (u, v) = (r[0] / r[2], r[1] / r[2]);
    let rsq = u * u + v * v;
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    [
        w * (u * l * cam[6] + cam[7] - feat[0]),
        w * (v * l * cam[6] + cam[8] - feat[1]),
    ]
}

/// The eval's input, duplicated into `n` cameras, `m` points and `p` observations (observation
/// `i` sees camera `i mod n` and point `i mod m`).
#[derive(Debug)]
pub struct Problem {
    pub n: usize,
    pub m: usize,
    pub cams: Vec<[f64; 11]>,
    pub points: Vec<[f64; 3]>,
    pub weights: Vec<f64>,
    pub features: Vec<[f64; 2]>,
    pub obs: Vec<(usize, usize)>,
}

impl Problem {
    pub fn read(input: &Value) -> Result<Problem, String> {
        use crate::protocol::{count, floats};
        let (n, m, p) = (count(input, "n")?, count(input, "m")?, count(input, "p")?);
        if n == 0 || m == 0 || p == 0 {
            return Err(format!(
                "n = {n} cameras, m = {m} points, p = {p} observations: each must be at least 1"
            ));
        }
        let (columns, entries) = (11 * n as u64 + 3 * m as u64 + p as u64, 31 * p as u64);
        if columns.max(entries) > u32::MAX as u64 {
            return Err(format!(
                "a Jacobian of {columns} columns and {entries} entries: more than `u32` indices hold"
            ));
        }
        let fixed = |name: &str, len: usize| -> Result<Vec<f64>, String> {
            let v = floats(input, name)?;
            if v.len() == len {
                Ok(v)
            } else {
                Err(format!("`{name}` holds {} numbers, not {len}", v.len()))
            }
        };
        let cam: [f64; 11] = fixed("cam", 11)?.try_into().expect("11 numbers");
        let x: [f64; 3] = fixed("x", 3)?.try_into().expect("3 numbers");
        let feat: [f64; 2] = fixed("feat", 2)?.try_into().expect("2 numbers");
        let w = (input.get("w").and_then(Value::as_f64)).ok_or("the input has no number `w`")?;
        Ok(Problem {
            n,
            m,
            cams: vec![cam; n],
            points: vec![x; m],
            weights: vec![w; p],
            features: vec![feat; p],
            obs: (0..p).map(|i| (i % n, i % m)).collect(),
        })
    }

    /// The reprojection errors (2 per observation) and the weight errors `1 - w²`.
    pub fn objective(&self, reproj: &mut [f64], w_err: &mut [f64]) {
        for (i, &(c, pt)) in self.obs.iter().enumerate() {
            let e = reprojection(
                &self.cams[c],
                &self.points[pt],
                self.weights[i],
                &self.features[i],
            );
            reproj[2 * i..2 * i + 2].copy_from_slice(&e);
        }
        for (e, w) in w_err.iter_mut().zip(&self.weights) {
            *e = 1.0 - w * w;
        }
    }

    /// The Jacobian in CSR (`rows` the row offsets), its entries in ADBench's order: per
    /// observation, each of its two rows' 11 camera, 3 point and 1 weight columns; then each
    /// weight row's one entry.
    pub fn jacobian(&self, j: &mut Csr) {
        let p = self.obs.len();
        // Sized once; a later evaluation writes over the same buffers (every entry below).
        j.rows.resize(3 * p + 1, 0);
        j.cols.resize(31 * p, 0);
        j.vals.resize(31 * p, 0.0);
        // Every index fits in `u32` (`Problem::read`).
        let (cols0, w0) = ((11 * self.n) as u32, (11 * self.n + 3 * self.m) as u32);
        let (blocks_c, weights_c) = j.cols.split_at_mut(30 * p);
        let (blocks_v, weights_v) = j.vals.split_at_mut(30 * p);
        let (rows, weight_rows) = j.rows.split_at_mut(2 * p + 1);
        rows[0] = 0;
        let it = (self.obs.iter().enumerate())
            .zip(blocks_c.chunks_exact_mut(30))
            .zip(blocks_v.chunks_exact_mut(30))
            .zip(rows[1..].chunks_exact_mut(2));
        for ((((i, &(c, pt)), cols), vals), ends) in it {
            let (_, (jc, jx, jw)) = reprojection_jacobian(
                &self.cams[c],
                &self.points[pt],
                self.weights[i],
                &self.features[i],
            );
            // Both rows' 15 columns: the camera's 11, the point's 3, the weight's.
            let (c, pt, wc) = (11 * c as u32, cols0 + 3 * pt as u32, w0 + i as u32);
            for row in 0..2 {
                let (cs, vs) = (
                    &mut cols[15 * row..15 * row + 15],
                    &mut vals[15 * row..15 * row + 15],
                );
                for (k, col) in cs[..11].iter_mut().enumerate() {
                    *col = c + k as u32;
                }
                for (k, col) in cs[11..14].iter_mut().enumerate() {
                    *col = pt + k as u32;
                }
                cs[14] = wc;
                vs[..11].copy_from_slice(&jc[row]);
                vs[11..14].copy_from_slice(&jx[row]);
                vs[14] = jw[row];
                ends[row] = (30 * i + 15 * (row + 1)) as u32;
            }
        }
        let base = 30 * p as u32;
        let it = (self.weights.iter().enumerate())
            .zip(weights_c.iter_mut().zip(weights_v.iter_mut()))
            .zip(weight_rows.iter_mut());
        for (((i, w), (col, val)), end) in it {
            *col = w0 + i as u32;
            *val = -2.0 * w;
            *end = base + i as u32 + 1;
        }
    }
}

/// A sparse matrix in CSR, its buffers kept from one evaluation to the next. Indices are `u32`
/// as in ADBench's layout (`Problem::read` checks that they fit): half the bytes of `usize`,
/// and writing the indices is a third of the Jacobian's memory traffic.
#[derive(Default)]
pub struct Csr {
    pub rows: Vec<u32>,
    pub cols: Vec<u32>,
    pub vals: Vec<f64>,
}

/// The first 30 entries and the last one of a list, as the eval compares them.
fn summary<T: Copy>(v: &[T]) -> Vec<T> {
    let mut out: Vec<T> = v.iter().take(30).copied().collect();
    out.extend(v.last());
    out
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let problem = Problem::read(input)?;
    let p = problem.obs.len();
    let runs = crate::protocol::Runs::of(input);
    match function {
        "objective" => {
            let (mut reproj, mut w_err) = (vec![0.0; 2 * p], vec![0.0; p]);
            let ((), times) = runs.time(|| problem.objective(&mut reproj, &mut w_err));
            let out = json!({
                "reproj_error": {"elements": &reproj[..2], "repeated": p},
                "w_err": {"element": w_err[0], "repeated": p},
            });
            Ok((out, times))
        }
        "jacobian" => {
            let mut j = Csr::default();
            let ((), times) = runs.time(|| problem.jacobian(&mut j));
            let out = json!({"rows": summary(&j.rows), "cols": summary(&j.cols), "vals": summary(&j.vals)});
            Ok((out, times))
        }
        _ => Err(super::unknown("ba", function)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAM: [f64; 11] = [
        0.1, -0.2, 0.05, 0.3, 0.1, -4.0, 500.0, 320.0, 240.0, 1e-3, -2e-6,
    ];

    /// The 2 x 15 block against central differences, with a rotation and without one (the
    /// Rodrigues formula's other branch).
    #[test]
    fn the_block_against_central_differences() {
        for cam in [
            CAM,
            [
                0.0, 0.0, 0.0, 0.3, 0.1, -4.0, 500.0, 320.0, 240.0, 1e-3, -2e-6,
            ],
        ] {
            let (x, w, feat) = ([0.5, -0.3, 2.0], 0.8, [330.0, 230.0]);
            let (value, (jc, jx, jw)) = reprojection_jacobian(&cam, &x, w, &feat);
            assert_eq!(value, reprojection(&cam, &x, w, &feat));
            let mut flat = [0.0; 15];
            flat[..11].copy_from_slice(&cam);
            flat[11..14].copy_from_slice(&x);
            flat[14] = w;
            let at = |v: &[f64; 15]| {
                let c: [f64; 11] = v[..11].try_into().unwrap();
                reprojection(&c, &[v[11], v[12], v[13]], v[14], &feat)
            };
            for col in 0..15 {
                // Relative steps: the focal length is 500, the distortion 1e-6.
                let h = 1e-6 * flat[col].abs().max(1e-3);
                let (mut p, mut m) = (flat, flat);
                p[col] += h;
                m[col] -= h;
                let (fp, fm) = (at(&p), at(&m));
                for row in 0..2 {
                    let fd = (fp[row] - fm[row]) / (2.0 * h);
                    let got = match col {
                        0..11 => jc[row][col],
                        11..14 => jx[row][col - 11],
                        _ => jw[row],
                    };
                    assert!(
                        (got - fd).abs() < 1e-5 * (1.0 + fd.abs()),
                        "row {row} col {col}: {got} against {fd}"
                    );
                }
            }
        }
    }

    /// The CSR layout: 15 entries per reprojection row in ADBench's column order, then one per
    /// weight row.
    #[test]
    fn the_jacobians_layout() {
        let input = json!({"n": 2, "m": 3, "p": 4, "cam": CAM, "x": [0.5, -0.3, 2.0], "w": 0.8,
            "feat": [330.0, 230.0]});
        let problem = Problem::read(&input).unwrap();
        let mut j = Csr::default();
        problem.jacobian(&mut j);
        assert_eq!(j.rows.len(), 3 * 4 + 1);
        assert_eq!(*j.rows.last().unwrap(), 30 * 4 + 4);
        // Observation 3 sees camera 1 and point 0: its second row's columns.
        let at = j.rows[7] as usize;
        let cols: Vec<u32> = (0..11)
            .map(|k| 11 + k)
            .chain([22, 23, 24, 22 + 9 + 3])
            .collect();
        assert_eq!(&j.cols[at..at + 15], &cols[..]);
        assert_eq!(j.cols.last(), Some(&(22 + 9 + 3)));
        assert_eq!(j.vals.last(), Some(&(-2.0 * 0.8)));
        // Every entry, against the layout built entry by entry: rows of 15 for each
        // observation (camera 11 (i mod 2), point 3 (i mod 3), weight), then the weight rows.
        let (mut rows, mut cols, mut vals) = (vec![0u32], Vec::new(), Vec::new());
        for i in 0..4usize {
            let (c, pt) = (i % 2, i % 3);
            let (_, (jc, jx, jw)) = reprojection_jacobian(
                &problem.cams[c],
                &problem.points[pt],
                0.8,
                &problem.features[i],
            );
            for row in 0..2 {
                for (k, &v) in jc[row].iter().enumerate() {
                    cols.push((11 * c + k) as u32);
                    vals.push(v);
                }
                for (k, &v) in jx[row].iter().enumerate() {
                    cols.push((22 + 3 * pt + k) as u32);
                    vals.push(v);
                }
                cols.push((31 + i) as u32);
                vals.push(jw[row]);
                rows.push(cols.len() as u32);
            }
        }
        for i in 0..4usize {
            cols.push((31 + i) as u32);
            vals.push(-2.0 * 0.8);
            rows.push(cols.len() as u32);
        }
        assert_eq!((&j.rows, &j.cols, &j.vals), (&rows, &cols, &vals));
        // The buffers are written over by the next evaluation, of any size.
        problem.jacobian(&mut j);
        assert_eq!((&j.rows, &j.cols, &j.vals), (&rows, &cols, &vals));
        let small = json!({"n": 1, "m": 1, "p": 1, "cam": CAM, "x": [0.5, -0.3, 2.0], "w": 0.8,
            "feat": [330.0, 230.0]});
        Problem::read(&small).unwrap().jacobian(&mut j);
        assert_eq!((j.rows.len(), j.cols.len(), j.vals.len()), (4, 31, 31));
        assert_eq!(j.rows, [0, 15, 30, 31]);
        assert!(Problem::read(&json!({"n": 0, "m": 1, "p": 1})).is_err());
        let huge = json!({"n": 1, "m": 1, "p": 200_000_000u64, "cam": CAM, "x": [0.0, 0.0, 0.0], "w": 1.0,
            "feat": [0.0, 0.0]});
        assert!(Problem::read(&huge).unwrap_err().contains("u32"));
    }
}
