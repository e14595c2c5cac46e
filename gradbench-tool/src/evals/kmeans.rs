//! `kmeans`: the cost `Σ_i min_j |C_j - P_i|²` of `n` points and `k` centroids in `d`
//! dimensions (all three read at run time, the points and centroids as flat row-major slices),
//! and the Newton direction `J / diag(H)`. The Hessian is diagonal, so one Hessian-vector
//! product along the all-ones vector is its diagonal, and `f_hvp` returns the gradient `J` with
//! it. The points are a loop of independent iterations; for each, a sequential loop over the
//! centroids finds the closest (its distances only compared: no derivative flows through it),
//! then the distance to that one is added, `min_j |C_j - P_i|²`. Each row is a sub-slice of its
//! flat slice, zipped with the other: the compiler checks a row's bounds once, where indexing
//! `c[j * d + t]` checked each element (the objective took 1.39x as long, BENCHMARKS).

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

#[differentiable(wrt(c), hvp)]
pub fn cost(c: &[f64], p: &[f64], d: usize) -> f64 {
    let k = c.len() / d;
    let n = p.len() / d;
    let mut total = 0.0;
    for i in 0..n {
        let point = &p[i * d..i * d + d];
        // The closest centroid (its distance only compared: no derivative flows through it),
        // then the distance to it, min_j |C_j - P_i|².
        let mut best = f64::INFINITY;
        let mut arg = 0;
        for j in 0..k {
            let centroid = &c[j * d..j * d + d];
            let mut dist = 0.0;
            for (a, b) in centroid.iter().zip(point) {
                let e = a - b;
                dist += e * e;
            }
            if dist < best {
                best = dist;
                arg = j;
            }
        }
        let closest = &c[arg * d..arg * d + d];
        let mut dist = 0.0;
        for (a, b) in closest.iter().zip(point) {
            let e = a - b;
            dist += e * e;
        }
        total += dist;
    }
    total
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let (p, d) = crate::protocol::rows(input, "points")?;
    let (c, dc) = crate::protocol::rows(input, "centroids")?;
    if d == 0 || d != dc {
        return Err(format!("points of {d} and centroids of {dc} dimensions"));
    }
    let runs = crate::protocol::Runs::of(input);
    match function {
        "cost" => {
            let (y, times) = runs.time(|| cost(&c, &p, d));
            Ok((json!(y), times))
        }
        "dir" => {
            let ones = vec![1.0; c.len()];
            let (mut g, mut h) = (vec![0.0; c.len()], vec![0.0; c.len()]);
            let (dir, times) = runs.time(|| {
                cost_hvp(&c, &p, d, &ones, &mut g, &mut h);
                g.iter().zip(&h).map(|(g, h)| g / h).collect::<Vec<f64>>()
            });
            let rows: Vec<&[f64]> = dir.chunks(d).collect();
            Ok((json!(rows), times))
        }
        _ => Err(super::unknown("kmeans", function)),
    }
}
