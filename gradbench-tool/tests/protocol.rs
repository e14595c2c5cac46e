//! The tool as GradBench runs it: a session of JSON lines on stdin, the responses on stdout.
//! Outputs are checked against independent f64 references (closed forms, the objective written
//! the way GradBench's C++ `manual` tool computes it); GradBench's own validation of these evals
//! is run with its Python evals (BENCHMARKS.md, "GradBench").

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// Sends `messages`, one per line, and returns the responses.
fn session(messages: &[Value]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stackgrad-gradbench"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the tool starts");
    // Written from another thread: a long session fills the pipes both ways.
    let mut stdin = child.stdin.take().unwrap();
    let lines: Vec<String> = messages.iter().map(|m| m.to_string()).collect();
    let writer = std::thread::spawn(move || {
        for line in lines {
            writeln!(stdin, "{line}").unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let responses: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        responses.len(),
        messages.len(),
        "one response per message:\n{text}"
    );
    for (m, r) in messages.iter().zip(&responses) {
        assert_eq!(m["id"], r["id"]);
    }
    responses
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Seeded values in [0, 1), as GradBench's evals draw them.
fn uniform(n: usize, mut seed: u64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

#[test]
fn hello_and_the_protocol() {
    let r = session(&[
        json!({"id": 0, "kind": "start", "eval": "hello"}),
        json!({"id": 1, "kind": "define", "module": "hello"}),
        json!({"id": 2, "kind": "evaluate", "module": "hello", "function": "square", "input": 3.0}),
        json!({"id": 3, "kind": "evaluate", "module": "hello", "function": "double", "input": 9.0}),
        json!({"id": 4, "kind": "analysis", "of": 3, "valid": true}),
        json!({"id": 5, "kind": "define", "module": "no-such-eval"}),
        json!({"id": 6, "kind": "evaluate", "module": "hello", "function": "cube", "input": 2.0}),
        json!({"id": 7, "kind": "evaluate", "module": "lse", "function": "primal", "input": {"y": [1.0]}}),
    ]);
    assert_eq!(r[0]["tool"], "stackgrad");
    assert_eq!(r[1]["success"], true);
    assert_eq!(
        (r[2]["output"].as_f64(), r[3]["output"].as_f64()),
        (Some(9.0), Some(18.0))
    );
    assert_eq!(r[2]["timings"][0]["name"], "evaluate");
    assert_eq!(r[4], json!({"id": 4}));
    assert_eq!(r[5]["success"], false);
    assert_eq!(r[6]["success"], false);
    assert!(
        r[6]["error"]
            .as_str()
            .unwrap()
            .contains("no function `cube`")
    );
    assert_eq!(r[7]["success"], false);
    assert!(r[7]["error"].as_str().unwrap().contains("no array `x`"));
}

#[test]
fn lse_against_the_softmax() {
    let x: Vec<f64> = uniform(5000, 1).iter().map(|v| 200.0 * v - 100.0).collect();
    let input = json!({"x": x, "min_runs": 3, "min_seconds": 0});
    let r = session(&[
        json!({"id": 0, "kind": "define", "module": "lse"}),
        json!({"id": 1, "kind": "evaluate", "module": "lse", "function": "primal", "input": input}),
        json!({"id": 2, "kind": "evaluate", "module": "lse", "function": "gradient", "input": input}),
    ]);
    assert_eq!(
        r[1]["timings"].as_array().unwrap().len(),
        3,
        "min_runs is honoured"
    );
    let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = x.iter().map(|v| (v - m).exp()).sum();
    let value = r[1]["output"].as_f64().unwrap();
    assert!((value - (m + total.ln())).abs() <= 1e-12 * value.abs());
    let g = floats(&r[2]["output"]);
    assert_eq!(g.len(), x.len());
    for (gi, xi) in g.iter().zip(&x) {
        assert!((gi - (xi - m).exp() / total).abs() <= 1e-14);
    }
}

#[test]
fn llsq_against_the_objective_and_its_closed_gradient() {
    for (n, m) in [(16, 128), (1000, 12), (2, 1)] {
        let x = uniform(m, n as u64);
        let input = json!({"x": x, "n": n, "min_runs": 1, "min_seconds": 0});
        let r = session(&[
            json!({"id": 0, "kind": "define", "module": "llsq"}),
            json!({"id": 1, "kind": "evaluate", "module": "llsq", "function": "primal", "input": input}),
            json!({"id": 2, "kind": "evaluate", "module": "llsq", "function": "gradient", "input": input}),
        ]);
        // The objective as GradBench's C++ `manual` tool writes it (powers by repeated
        // products), and the gradient -Σ_i r_i t_i^j.
        let (mut value, mut grad) = (0.0, vec![0.0; m]);
        for i in 0..n {
            let t = -1.0 + i as f64 * 2.0 / (n as f64 - 1.0);
            let s = if t > 0.0 {
                1.0
            } else if t < 0.0 {
                -1.0
            } else {
                0.0
            };
            let (mut fit, mut power) = (0.0, 1.0);
            let mut powers = Vec::new();
            for xj in &x {
                fit += xj * power;
                powers.push(power);
                power *= t;
            }
            let residual = s - fit;
            value += residual * residual / 2.0;
            for (g, p) in grad.iter_mut().zip(&powers) {
                *g -= residual * p;
            }
        }
        let out = r[1]["output"].as_f64().unwrap();
        assert!(
            (out - value).abs() <= 1e-9 * value.abs().max(1.0),
            "n {n}: {out} {value}"
        );
        for (a, b) in floats(&r[2]["output"]).iter().zip(&grad) {
            assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "n {n}: {a} {b}");
        }
    }
}

#[test]
fn kmeans_direction_against_its_closed_form() {
    let (n, k, d) = (300, 6, 4);
    let flat = uniform(n * d, 9);
    let points: Vec<&[f64]> = flat.chunks(d).collect();
    let centroids: Vec<&[f64]> = points[n - k..].to_vec();
    let input = json!({"points": points, "centroids": centroids, "min_runs": 1, "min_seconds": 0});
    let r = session(&[
        json!({"id": 0, "kind": "define", "module": "kmeans"}),
        json!({"id": 1, "kind": "evaluate", "module": "kmeans", "function": "cost", "input": input}),
        json!({"id": 2, "kind": "evaluate", "module": "kmeans", "function": "dir", "input": input}),
    ]);
    // Each point's nearest centroid j: the cost adds |c_j - p|², the gradient 2 (c_j - p), the
    // Hessian's diagonal 2; the direction is their quotient.
    let (mut cost, mut g, mut h) = (0.0, vec![vec![0.0; d]; k], vec![vec![0.0; d]; k]);
    for p in &points {
        let dist = |c: &[f64]| {
            c.iter()
                .zip(*p)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
        };
        let j = (0..k)
            .min_by(|&a, &b| dist(centroids[a]).total_cmp(&dist(centroids[b])))
            .unwrap();
        cost += dist(centroids[j]);
        for t in 0..d {
            g[j][t] += 2.0 * (centroids[j][t] - p[t]);
            h[j][t] += 2.0;
        }
    }
    let out = r[1]["output"].as_f64().unwrap();
    assert!((out - cost).abs() <= 1e-12 * cost);
    let dir = r[2]["output"].as_array().unwrap();
    assert_eq!(dir.len(), k);
    for j in 0..k {
        for (t, v) in floats(&dir[j]).iter().enumerate() {
            let want = g[j][t] / h[j][t];
            assert!(
                (v - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{j} {t}: {v} {want}"
            );
        }
    }
}

/// `saddle` and `particle` in the four mode combinations through the protocol: every response
/// is GradBench's expected output (its evals' `expect`, within their tolerance of 1e-4; the
/// evals' own modules check these against finite differences), and the four agree to rounding.
#[test]
fn saddle_and_particle_in_every_mode_combination() {
    for (module, input, expected) in [
        (
            "saddle",
            json!({"start": [1.0, 1.0]}),
            vec![8.246324826140356e-06; 4],
        ),
        ("particle", json!({"w": 0.0}), vec![0.2071918746486116]),
    ] {
        let mut messages = vec![json!({"id": 0, "kind": "define", "module": module})];
        for (id, function) in ["rr", "ff", "fr", "rf"].into_iter().enumerate() {
            messages.push(json!({"id": id + 1, "kind": "evaluate", "module": module,
                "function": function, "input": input}));
        }
        let r = session(&messages);
        assert_eq!(r[0]["success"], true);
        for response in &r[1..] {
            let out = numbers(&response["output"]);
            assert_eq!(out.len(), expected.len(), "{module}: {response}");
            for (o, e) in out.iter().zip(&expected) {
                assert!((o - e).abs() <= 1e-4 * e.abs(), "{module}: {o} against {e}");
            }
            // The modes agree to rounding.
            let rr = numbers(&r[1]["output"]);
            for (o, e) in out.iter().zip(&rr) {
                assert!(
                    (o - e).abs() <= 1e-12 * e.abs(),
                    "{module}: {o} against rr's {e}"
                );
            }
        }
    }
}

/// An output of one number or an array of them.
fn numbers(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(_) => floats(v),
        v => vec![v.as_f64().unwrap()],
    }
}

/// `gmm` through the protocol: the eval's input layout in, its Jacobian's layout out (the values
/// are checked against a plain reference and central differences in `src/evals/gmm.rs`).
#[test]
fn gmm_takes_the_evals_layout() {
    let (d, k, n) = (3, 2, 4);
    let u = uniform(64, 7);
    let rows = |r: usize, c: usize, at: usize| -> Vec<Vec<f64>> {
        (0..r)
            .map(|i| u[at + i * c..at + (i + 1) * c].to_vec())
            .collect()
    };
    let input = json!({"d": d, "k": k, "n": n, "m": 0, "gamma": 1.0,
        "alpha": &u[0..k], "mu": rows(k, d, 2), "q": rows(k, d, 8), "l": rows(k, 3, 14),
        "x": rows(n, d, 20), "min_runs": 1, "min_seconds": 0});
    let r = session(&[
        json!({"id": 0, "kind": "define", "module": "gmm"}),
        json!({"id": 1, "kind": "evaluate", "module": "gmm", "function": "objective", "input": input}),
        json!({"id": 2, "kind": "evaluate", "module": "gmm", "function": "jacobian", "input": input}),
        json!({"id": 3, "kind": "evaluate", "module": "gmm", "function": "objective",
            "input": {"d": 3, "k": 2, "n": 1, "alpha": [0.0], "mu": [], "q": [], "l": [], "x": [],
                "m": 0, "gamma": 1.0}}),
    ]);
    assert!(r[1]["output"].as_f64().unwrap().is_finite());
    let j = &r[2]["output"];
    assert_eq!(floats(&j["alpha"]).len(), k);
    for (key, width) in [("mu", d), ("q", d), ("l", 3)] {
        let rows = j[key].as_array().unwrap();
        assert_eq!(rows.len(), k, "{key}");
        assert!(rows.iter().all(|row| floats(row).len() == width), "{key}");
    }
    // A malformed input is an error that says what is wrong, not a panic.
    assert_eq!(r[3]["success"], false);
    assert!(
        r[3]["error"].as_str().unwrap().contains("alpha"),
        "{}",
        r[3]
    );
}

#[test]
fn ode_against_the_exact_solution_and_central_differences() {
    let (n, s) = (5, 40);
    let x: Vec<f64> = uniform(n, 11).iter().map(|u| 0.5 + u).collect();
    let input = |x: &[f64]| json!({"x": x, "s": s, "min_runs": 1, "min_seconds": 0});
    let mut messages = vec![
        json!({"id": 0, "kind": "define", "module": "ode"}),
        json!({"id": 1, "kind": "evaluate", "module": "ode", "function": "primal", "input": input(&x)}),
        json!({"id": 2, "kind": "evaluate", "module": "ode", "function": "gradient", "input": input(&x)}),
    ];
    let e = 1e-6;
    for i in 0..n {
        for sign in [1.0, -1.0] {
            let mut p = x.clone();
            p[i] += sign * e;
            let id = messages.len();
            messages.push(json!({"id": id, "kind": "evaluate", "module": "ode", "function": "primal", "input": input(&p)}));
        }
    }
    let r = session(&messages);
    assert!(r[0]["success"].as_bool().unwrap());
    // The exact solution at t = 2: y_i = x_0 .. x_i 2^(i+1) / (i+1)!; RK4 with h = 1/20 is
    // within 1e-6 of it.
    let y = floats(&r[1]["output"]);
    let (mut prod, mut fact) = (1.0, 1.0);
    for i in 0..n {
        prod *= x[i] * 2.0;
        fact *= (i + 1) as f64;
        let exact = prod / fact;
        assert!(
            (y[i] - exact).abs() < 1e-6 * exact,
            "y[{i}] = {} against {exact}",
            y[i]
        );
    }
    // The gradient of the last element against central differences of the primal.
    let g = floats(&r[2]["output"]);
    for i in 0..n {
        let (yp, ym) = (
            floats(&r[3 + 2 * i]["output"]),
            floats(&r[4 + 2 * i]["output"]),
        );
        let fd = (yp[n - 1] - ym[n - 1]) / (2.0 * e);
        assert!(
            (g[i] - fd).abs() < 1e-6 * fd.abs(),
            "d/dx[{i}]: {} against {fd}",
            g[i]
        );
    }
    // Bad input: a typed error, no panic.
    let bad = session(&[
        json!({"id": 0, "kind": "define", "module": "ode"}),
        json!({"id": 1, "kind": "evaluate", "module": "ode", "function": "gradient", "input": {"x": [], "s": 3}}),
        json!({"id": 2, "kind": "evaluate", "module": "ode", "function": "primal", "input": {"x": [1.0], "s": 0}}),
    ]);
    assert_eq!(bad[1]["success"], false);
    assert_eq!(bad[2]["success"], false);
}

/// ADBench's small hand model (`data/adbench/ht/model`) and its first simple instance, read as
/// GradBench's `io.py` reads them (`adbench::ht_input`), as the eval's JSON input. With
/// `complicated`, each point is bound to a triangle instead, at seeded barycentric coordinates.
fn hand_input(complicated: bool) -> Value {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/adbench/ht"));
    let mut input = stackgrad_gradbench::adbench::ht_input(
        &dir.join("model"),
        &dir.join("hand1_t26_c100.txt"),
        false,
    )
    .unwrap();
    if complicated {
        let triangles = input["data"]["model"]["triangles"]
            .as_array()
            .unwrap()
            .len();
        let n = input["data"]["points"].as_array().unwrap().len();
        let u = uniform(2 * n, 5);
        let corr: Vec<usize> = (0..n).map(|i| (i * 37) % triangles).collect();
        let us: Vec<Vec<f64>> = (0..n)
            .map(|i| vec![0.5 * u[2 * i], 0.5 * u[2 * i + 1]])
            .collect();
        input["data"]["correspondences"] = json!(corr);
        input["us"] = json!(us);
    }
    input["min_runs"] = json!(1);
    input["min_seconds"] = json!(0);
    input
}

#[test]
fn ht_jacobian_against_central_differences() {
    for complicated in [false, true] {
        let input = hand_input(complicated);
        let theta = floats(&input["theta"]);
        let h = 1e-6;
        let with = |f: &dyn Fn(&mut Value)| {
            let mut i = input.clone();
            f(&mut i);
            i
        };
        let mut messages = vec![
            json!({"id": 0, "kind": "define", "module": "ht"}),
            json!({"id": 1, "kind": "evaluate", "module": "ht", "function": "objective", "input": input}),
            json!({"id": 2, "kind": "evaluate", "module": "ht", "function": "jacobian", "input": input}),
        ];
        // The pose parameters, then (complicated) every point's first and second barycentric
        // coordinate at once: each residual reads its own only.
        let columns = if complicated { 28 } else { 26 };
        for col in 0..columns {
            for sign in [1.0, -1.0] {
                let shifted = with(&|i: &mut Value| {
                    if complicated && col < 2 {
                        for u in i["us"].as_array_mut().unwrap() {
                            u[col] = json!(u[col].as_f64().unwrap() + sign * h);
                        }
                    } else {
                        let k = col - (columns - 26);
                        i["theta"][k] = json!(theta[k] + sign * h);
                    }
                });
                let id = messages.len();
                messages.push(json!({"id": id, "kind": "evaluate", "module": "ht", "function": "objective", "input": shifted}));
            }
        }
        // A global translation moves every posed vertex by itself: the residuals by minus it.
        let moved = with(&|i: &mut Value| i["theta"][3] = json!(theta[3] + 0.25));
        messages.push(json!({"id": messages.len(), "kind": "evaluate", "module": "ht", "function": "objective", "input": moved}));
        let r = session(&messages);
        assert!(r.iter().all(|r| r["success"] != false), "{r:?}");
        let err = floats(&r[1]["output"]);
        let rows: Vec<Vec<f64>> = (r[2]["output"].as_array().unwrap().iter())
            .map(floats)
            .collect();
        assert_eq!((err.len(), rows.len()), (300, 300));
        for col in 0..columns {
            let (p, m) = (
                floats(&r[3 + 2 * col]["output"]),
                floats(&r[4 + 2 * col]["output"]),
            );
            for row in 0..err.len() {
                let fd = (p[row] - m[row]) / (2.0 * h);
                let got = rows[row][col];
                assert!(
                    (got - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                    "complicated {complicated}, row {row}, column {col}: {got} against {fd}"
                );
            }
        }
        let shifted = floats(&r[3 + 2 * columns]["output"]);
        for row in 0..err.len() {
            let want = err[row] - if row % 3 == 0 { 0.25 } else { 0.0 };
            assert!((shifted[row] - want).abs() < 1e-12, "row {row}");
        }
    }
    // Bad input: a typed error, no panic.
    let mut bad = hand_input(false);
    bad["data"]["correspondences"][0] = json!(100_000);
    // A bone's transform that is not rigid (its last row not [0, 0, 0, 1]).
    let mut skewed = hand_input(false);
    skewed["data"]["model"]["inverse_base_absolutes"][3][3] = json!([0.0, 0.0, 0.5, 1.0]);
    let r = session(&[
        json!({"id": 0, "kind": "define", "module": "ht"}),
        json!({"id": 1, "kind": "evaluate", "module": "ht", "function": "jacobian", "input": bad}),
        json!({"id": 2, "kind": "evaluate", "module": "ht", "function": "objective", "input": {"theta": [1.0]}}),
        json!({"id": 3, "kind": "evaluate", "module": "ht", "function": "objective", "input": skewed}),
    ]);
    assert_eq!(
        (r[1]["success"].clone(), r[2]["success"].clone()),
        (json!(false), json!(false))
    );
    assert_eq!(r[3]["success"], json!(false));
    let error = r[3]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains(
            "bone 3's matrix in `inverse_base_absolutes` has last row [0.0, 0.0, 0.5, 1.0]"
        ),
        "{error}"
    );
}

#[test]
fn det_against_elimination_and_central_differences() {
    // A 4 x 4 matrix: its determinant by cofactors along the first row, each 3 x 3 minor by
    // Sarrus' rule, and its gradient (the cofactor matrix) by central differences of that.
    let a: Vec<f64> = uniform(16, 3).iter().map(|u| u - 0.5).collect();
    fn det3(m: [f64; 9]) -> f64 {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
    }
    let det4 = |a: &[f64]| -> f64 {
        (0..4)
            .map(|j| {
                let mut m = [0.0; 9];
                let mut k = 0;
                for r in 1..4 {
                    for c in (0..4).filter(|&c| c != j) {
                        m[k] = a[4 * r + c];
                        k += 1;
                    }
                }
                let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
                sign * a[j] * det3(m)
            })
            .sum()
    };
    let input = json!({"A": a, "ell": 4, "min_runs": 2, "min_seconds": 0});
    let r = session(&[
        json!({"id": 0, "kind": "define", "module": "det"}),
        json!({"id": 1, "kind": "evaluate", "module": "det", "function": "primal", "input": input}),
        json!({"id": 2, "kind": "evaluate", "module": "det", "function": "gradient", "input": input}),
        json!({"id": 3, "kind": "evaluate", "module": "det", "function": "gradient", "input": {"A": [1.0, 2.0], "ell": 2}}),
        json!({"id": 4, "kind": "evaluate", "module": "det", "function": "gradient", "input": {"A": vec![0.0; 144], "ell": 12}}),
    ]);
    let want = det4(&a);
    let got = r[1]["output"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-14, "{got} {want}");
    let g = floats(&r[2]["output"]);
    for i in 0..16 {
        let (mut p, mut m) = (a.clone(), a.clone());
        p[i] += 1e-6;
        m[i] -= 1e-6;
        let fd = (det4(&p) - det4(&m)) / 2e-6;
        assert!((g[i] - fd).abs() < 1e-8, "d/dA[{i}]: {} against {fd}", g[i]);
    }
    assert_eq!(r[2]["timings"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        (r[3]["success"].clone(), r[4]["success"].clone()),
        (json!(false), json!(false))
    );
}
