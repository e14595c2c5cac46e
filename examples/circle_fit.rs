//! Fitting a circle to a range scan by Levenberg-Marquardt, with the residuals' Jacobian from
//! `#[differentiable(jacobian)]`: what a robot does to find a round pillar in a lidar scan, or a
//! vision pipeline to fit a wheel's rim to edge points. The points lie on a third of the
//! circle, with noise; the fit starts from the points' centroid.
//!
//! ```sh
//! cargo run --release --example circle_fit                        # prints the iterations
//! cargo run --release --example circle_fit -- --svg circle.svg    # and draws the fit
//! ```

use stackgrad::differentiable;

/// Points in the scan.
const N: usize = 24;

/// The distance of each point to the circle `c = [centre x, centre y, radius]`: zero for a
/// point on it.
#[differentiable(jacobian, wrt(c))]
fn residuals(c: &[f64; 3], points: &[[f64; 2]; N]) -> [f64; N] {
    let mut r = [0.0; N];
    for i in 0..N {
        let (dx, dy) = (points[i][0] - c[0], points[i][1] - c[1]);
        r[i] = (dx * dx + dy * dy).sqrt() - c[2];
    }
    r
}

/// The scan: points on the arc from -30° to 90° of the circle centred at (2, -1) of radius 1.5,
/// each moved along its ray by up to ±`noise` (a fixed pseudo-random sequence).
fn scan(noise: f64) -> [[f64; 2]; N] {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    core::array::from_fn(|i| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let u = (state >> 11) as f64 / (1u64 << 53) as f64;
        let a = (-30.0 + 120.0 * i as f64 / (N - 1) as f64).to_radians();
        let r = 1.5 + noise * (2.0 * u - 1.0);
        [2.0 + r * a.cos(), -1.0 + r * a.sin()]
    })
}

fn cost(r: &[f64; N]) -> f64 {
    0.5 * r.iter().map(|v| v * v).sum::<f64>()
}

/// Solves the 3 x 3 system `a x = b` by Gaussian elimination with partial pivoting.
fn solve3(mut a: [[f64; 3]; 3], mut b: [f64; 3]) -> Option<[f64; 3]> {
    for k in 0..3 {
        let p = (k..3).max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))?;
        if a[p][k].abs() < 1e-300 {
            return None;
        }
        a.swap(k, p);
        b.swap(k, p);
        for i in k + 1..3 {
            let m = a[i][k] / a[k][k];
            let pivot = a[k];
            for (x, p) in a[i][k..].iter_mut().zip(&pivot[k..]) {
                *x -= m * p;
            }
            b[i] -= m * b[k];
        }
    }
    let mut x = [0.0; 3];
    for k in (0..3).rev() {
        let s: f64 = (k + 1..3).map(|j| a[k][j] * x[j]).sum();
        x[k] = (b[k] - s) / a[k][k];
    }
    Some(x)
}

/// One accepted or rejected step of the fit.
struct Step {
    circle: [f64; 3],
    cost: f64,
    lambda: f64,
}

/// Levenberg-Marquardt from `start`: each iteration solves `(JᵀJ + λ diag(JᵀJ)) δ = -Jᵀr` with
/// `J` from `residuals_jacobian`, keeps the step if the cost falls (and divides λ by 3), else
/// multiplies λ by 4. Stops when a step moves the circle by less than 1e-10 of its radius, or is
/// rejected for want of a measurable decrease.
fn fit(points: &[[f64; 2]; N], start: [f64; 3]) -> Vec<Step> {
    let (mut c, mut lambda) = (start, 1e-3);
    let mut steps = vec![Step {
        circle: c,
        cost: cost(&residuals(&c, points)),
        lambda,
    }];
    for _ in 0..100 {
        let (r, j) = residuals_jacobian(&c, points);
        let mut jtj = [[0.0; 3]; 3];
        let mut jtr = [0.0; 3];
        for i in 0..N {
            for a in 0..3 {
                jtr[a] += j[i][a] * r[i];
                for b in 0..3 {
                    jtj[a][b] += j[i][a] * j[i][b];
                }
            }
        }
        let mut m = jtj;
        for a in 0..3 {
            m[a][a] += lambda * jtj[a][a];
        }
        let Some(delta) = solve3(m, jtr.map(|v| -v)) else {
            break;
        };
        let next = [c[0] + delta[0], c[1] + delta[1], c[2] + delta[2]];
        let (now, then) = (cost(&r), cost(&residuals(&next, points)));
        if then < now {
            c = next;
            lambda /= 3.0;
        } else {
            lambda *= 4.0;
        }
        steps.push(Step {
            circle: c,
            cost: then.min(now),
            lambda,
        });
        // Converged: the step is below rounding, or no longer lowers the cost measurably.
        let step = delta.iter().map(|d| d * d).sum::<f64>().sqrt();
        if step < 1e-10 * (1.0 + c[2].abs()) || now - then.min(now) < 1e-14 * now && then >= now {
            break;
        }
    }
    steps
}

/// The centroid of the points, and their mean distance to it: a start far from the answer, as
/// the arc is a third of the circle.
fn centroid_start(points: &[[f64; 2]; N]) -> [f64; 3] {
    let (x, y) = points.iter().fold((0.0, 0.0), |(x, y), p| {
        (x + p[0] / N as f64, y + p[1] / N as f64)
    });
    let r = points
        .iter()
        .map(|p| ((p[0] - x).powi(2) + (p[1] - y).powi(2)).sqrt())
        .sum::<f64>()
        / N as f64;
    [x, y, r]
}

/// The scan, the start and the fitted circle as an SVG drawing.
fn svg(points: &[[f64; 2]; N], start: &[f64; 3], fitted: &[f64; 3]) -> String {
    // The world's x from -0.2 to 4.2, y from -2.9 to 0.9.
    let (scale, ox, oy) = (100.0, 20.0, 100.0);
    let at = |x: f64, y: f64| (ox + scale * x, oy - scale * y);
    let circle = |c: &[f64; 3], style: &str| {
        let (x, y) = at(c[0], c[1]);
        format!(
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" {style}/>\n",
            scale * c[2]
        )
    };
    let mut s = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"460\" height=\"420\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"460\" height=\"420\" fill=\"white\"/>\n",
    );
    s += &circle(
        start,
        "fill=\"none\" stroke=\"#999\" stroke-dasharray=\"4 4\"",
    );
    s += &circle(
        fitted,
        "fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\"",
    );
    for p in points {
        let (x, y) = at(p[0], p[1]);
        s += &format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"#c62828\"/>\n");
    }
    s += "<text x=\"10\" y=\"410\">scan points (red), the start at their centroid (dashed), the fit (blue)</text>\n</svg>\n";
    s
}

fn main() {
    let points = scan(0.05);
    let start = centroid_start(&points);
    let steps = fit(&points, start);
    println!("iteration  cost            lambda     centre x  centre y  radius");
    for (k, s) in steps.iter().enumerate() {
        let c = s.circle;
        println!(
            "{k:>9}  {:<14.6e}  {:<9.2e}  {:>8.5}  {:>8.5}  {:>6.5}",
            s.cost, s.lambda, c[0], c[1], c[2]
        );
    }
    let c = steps.last().expect("at least the start").circle;
    println!(
        "fitted: centre ({:.4}, {:.4}), radius {:.4} (the scan's circle: (2, -1), 1.5)",
        c[0], c[1], c[2]
    );
    let mut args = std::env::args().skip(1);
    if let (Some(flag), Some(path)) = (args.next(), args.next())
        && flag == "--svg"
    {
        match std::fs::write(&path, svg(&points, &start, &c)) {
            Ok(()) => println!("wrote {path}"),
            Err(e) => {
                eprintln!("cannot write {path}: {e}");
                std::process::exit(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Jacobian against central differences of the residuals.
    #[test]
    fn the_jacobian_against_central_differences() {
        let points = scan(0.05);
        let c = [1.7, -0.6, 1.2];
        let (_, j) = residuals_jacobian(&c, &points);
        let h = 1e-6;
        for a in 0..3 {
            let (mut p, mut m) = (c, c);
            p[a] += h;
            m[a] -= h;
            let (rp, rm) = (residuals(&p, &points), residuals(&m, &points));
            for i in 0..N {
                let fd = (rp[i] - rm[i]) / (2.0 * h);
                assert!(
                    (j[i][a] - fd).abs() < 1e-8,
                    "{i} {a}: {} against {fd}",
                    j[i][a]
                );
            }
        }
    }

    /// Without noise the fit finds the circle; with noise, a circle whose residuals are
    /// orthogonal to the Jacobian's columns (the least-squares optimality condition).
    #[test]
    fn the_fit_finds_the_circle() {
        let points = scan(0.0);
        let c = fit(&points, centroid_start(&points)).last().unwrap().circle;
        for (got, want) in c.iter().zip([2.0, -1.0, 1.5]) {
            assert!((got - want).abs() < 1e-9, "{c:?}");
        }
        let points = scan(0.05);
        let c = fit(&points, centroid_start(&points)).last().unwrap().circle;
        let (r, j) = residuals_jacobian(&c, &points);
        let jtr: [f64; 3] = core::array::from_fn(|a| (0..N).map(|i| j[i][a] * r[i]).sum());
        assert!(jtr.iter().all(|g| g.abs() < 1e-8), "Jᵀr = {jtr:?}");
        // Noise of ±0.05 on a third of the circle moves the fit by less than 0.1.
        assert!((c[0] - 2.0).abs() < 0.1 && (c[1] + 1.0).abs() < 0.1 && (c[2] - 1.5).abs() < 0.1);
    }
}
