//! Newton's method against gradient descent: multinomial logistic regression (softmax
//! cross-entropy, mean over the rows, plus `λ · ½ ‖W‖²`) on the bundled iris data with
//! standardized features, minimised from the same start (every weight zero) until
//! `‖∇f‖ < 1e-8` by
//!
//! - **Newton-CG**: conjugate gradients on `H p = -∇f` (`runtime::hessian::newton_cg`, its default
//!   forcing tolerance) from the Hessian-vector products of `loss_hvp`, then a backtracking
//!   (Armijo) line search from `t = 1`;
//! - **gradient descent with the same line search** along `-∇f`, the fair comparison;
//! - **gradient descent with the fixed step `1 / L`**, `L = ½ λmax(X̃ᵀX̃ / n) + λ` (Böhning's
//!   bound on the Hessian everywhere, `X̃` the features with a column of ones): the textbook
//!   step for an `L`-smooth function, sure to decrease the loss without a line search.
//!
//! The penalty (`λ = 1e-3` on all 15 parameters, biases included) makes the minimum unique:
//! setosa is linearly separable, and without it its weights would grow forever. It also sets the
//! smallest curvature: at the minimum the Hessian's eigenvalues run from `λ` to about 0.18, and
//! that spread is what gradient descent pays for. Newton-CG converges in 9 iterations (45
//! Hessian-vector products), gradient descent with the same line search in about 9000.
//!
//! `loss` is one `#[differentiable(hvp, wrt(w))]` function of the weights `[[f64; 5]; 3]` (4
//! weights and a bias per class); the macro generates `loss_grad` (the gradient) and `loss_hvp`
//! (the Hessian times a direction, reverse mode over forward mode) at compile time.
//!
//! ```sh
//! cargo run --release --example newton_logistic                # the table and the plot
//! cargo run --release --example newton_logistic -- --help      # every option
//! ```
//!
//! Prints, per method, the iterations, the gradients, the Hessian-vector products and the loss
//! evaluations of the line search it used, the final loss, gradient norm and training accuracy,
//! and the time; writes `log10(loss - minimum)` per iteration of each method (the minimum: the
//! smallest loss any method reached; the difference floored at its rounding, `ε · minimum`) as
//! an SVG to `--plot` (`target/newton_logistic/convergence.svg`) and prints its path.

use std::error::Error;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use stackgrad::differentiable;
use stackgrad::runtime::data::bundled;
use stackgrad::runtime::hessian::{self, CgOptions};
use stackgrad::runtime::train::{Accuracy, plot_loss_curves};

/// Rows of the iris data.
const ROWS: usize = 150;
/// Measurements per flower.
const FEATURES: usize = 4;
/// Weights of one class: one per feature, then the bias.
const INPUTS: usize = FEATURES + 1;
/// Species.
const CLASSES: usize = 3;
/// Every parameter, flattened for `runtime::hessian`.
const PARAMS: usize = CLASSES * INPUTS;

/// The sufficient decrease of the line search: `f(w + t p) ≤ f(w) + ARMIJO · t · ∇fᵀp`.
const ARMIJO: f64 = 1e-4;
/// Halvings of the step before the line search gives up (no decrease left above rounding).
const MAX_HALVINGS: usize = 60;

/// The weights: row `c` holds the weights of class `c`, its bias last.
type Weights = [[f64; INPUTS]; CLASSES];

/// The mean softmax cross-entropy of the linear model `w` on `(x, y)`, plus `l2 · ½ ‖w‖²`.
/// Shapes: `w` `[CLASSES][INPUTS]` (spelled out: the macro reads the signature, not the alias
/// `Weights`), `x` `[ROWS][FEATURES]`, `y` `[ROWS]` class indices.
#[allow(clippy::needless_range_loop)] // rows, classes and features by index, as the math reads
#[differentiable(hvp, wrt(w))]
fn loss(
    w: &[[f64; INPUTS]; CLASSES],
    x: &[[f64; FEATURES]; ROWS],
    y: &[usize; ROWS],
    l2: f64,
) -> f64 {
    let mut total = 0.0;
    for n in 0..ROWS {
        let mut z = [0.0; CLASSES];
        for c in 0..CLASSES {
            let mut s = w[c][FEATURES];
            for j in 0..FEATURES {
                s += w[c][j] * x[n][j];
            }
            z[c] = s;
        }
        let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut e = 0.0;
        for c in 0..CLASSES {
            e += (z[c] - m).exp();
        }
        total += e.ln() + m - z[y[n]];
    }
    let mut squares = 0.0;
    for c in 0..CLASSES {
        for j in 0..INPUTS {
            squares += w[c][j] * w[c][j];
        }
    }
    total / ROWS as f64 + 0.5 * l2 * squares
}

fn flatten(w: &Weights) -> [f64; PARAMS] {
    core::array::from_fn(|k| w[k / INPUTS][k % INPUTS])
}

fn unflatten(v: &[f64; PARAMS]) -> Weights {
    core::array::from_fn(|c| core::array::from_fn(|j| v[c * INPUTS + j]))
}

fn dot(a: &[f64; PARAMS], b: &[f64; PARAMS]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum()
}

fn norm(a: &[f64; PARAMS]) -> f64 {
    dot(a, a).sqrt()
}

/// `w + t p`.
fn moved(w: &[f64; PARAMS], t: f64, p: &[f64; PARAMS]) -> [f64; PARAMS] {
    core::array::from_fn(|k| w[k] + t * p[k])
}

/// The training set, standardized, and the penalty: the loss and its derivatives at flattened
/// parameters.
struct Problem {
    x: [[f64; FEATURES]; ROWS],
    y: [usize; ROWS],
    l2: f64,
}

impl Problem {
    /// Iris from `data/iris/iris.csv`, each feature shifted and scaled to mean 0 and variance 1.
    fn iris(l2: f64) -> Result<Problem, Box<dyn Error>> {
        let data = bundled::iris(bundled::data_dir().join("iris/iris.csv"))?;
        if (data.len(), data.n_features, data.n_classes) != (ROWS, FEATURES, CLASSES) {
            return Err(format!(
                "expected {ROWS} rows of {FEATURES} features in {CLASSES} classes, found {} of {} in {}",
                data.len(),
                data.n_features,
                data.n_classes
            )
            .into());
        }
        let mut x = [[0.0; FEATURES]; ROWS];
        for (n, row) in x.iter_mut().enumerate() {
            let features = data.row(n).ok_or("iris: a short row")?;
            *row = core::array::from_fn(|j| f64::from(features[j]));
        }
        for j in 0..FEATURES {
            let mean = x.iter().map(|row| row[j]).sum::<f64>() / ROWS as f64;
            let variance = x.iter().map(|row| (row[j] - mean).powi(2)).sum::<f64>() / ROWS as f64;
            for row in &mut x {
                row[j] = (row[j] - mean) / variance.sqrt();
            }
        }
        let y = <[usize; ROWS]>::try_from(data.labels).map_err(|_| "iris: not 150 labels")?;
        Ok(Problem { x, y, l2 })
    }

    fn value(&self, w: &[f64; PARAMS]) -> f64 {
        loss(&unflatten(w), &self.x, &self.y, self.l2)
    }

    /// The loss and its gradient.
    fn gradient(&self, w: &[f64; PARAMS]) -> (f64, [f64; PARAMS]) {
        let (value, g) = loss_grad(&unflatten(w), &self.x, &self.y, self.l2);
        (value, flatten(&g))
    }

    /// The Hessian at `w` times `v`.
    fn hessian_times(&self, w: &[f64; PARAMS], v: &[f64; PARAMS]) -> [f64; PARAMS] {
        let (_, _, hv) = loss_hvp(&unflatten(w), &self.x, &self.y, self.l2, &unflatten(v));
        flatten(&hv)
    }

    /// The fraction of rows whose largest logit is their class.
    fn accuracy(&self, w: &[f64; PARAMS]) -> f64 {
        let w = unflatten(w);
        let mut accuracy = Accuracy::default();
        for (row, &label) in self.x.iter().zip(&self.y) {
            let logits: [f64; CLASSES] = core::array::from_fn(|c| {
                w[c][FEATURES] + w[c].iter().zip(row).map(|(a, b)| a * b).sum::<f64>()
            });
            accuracy.push_logits(&logits, label);
        }
        accuracy.fraction().unwrap_or(0.0)
    }

    /// Böhning's bound on the Hessian's largest eigenvalue, `½ λmax(X̃ᵀX̃ / n) + λ` (`X̃` the
    /// features and a column of ones), by power iteration on the 5 x 5 matrix.
    fn curvature_bound(&self) -> f64 {
        let mut m = [[0.0; INPUTS]; INPUTS];
        for row in &self.x {
            let r: [f64; INPUTS] =
                core::array::from_fn(|j| if j < FEATURES { row[j] } else { 1.0 });
            for i in 0..INPUTS {
                for j in 0..INPUTS {
                    m[i][j] += r[i] * r[j] / ROWS as f64;
                }
            }
        }
        let mut v = [1.0; INPUTS];
        let mut largest = 0.0;
        for _ in 0..1000 {
            let mv: [f64; INPUTS] =
                core::array::from_fn(|i| m[i].iter().zip(&v).map(|(a, b)| a * b).sum());
            let size = mv.iter().map(|a| a * a).sum::<f64>().sqrt();
            largest = size / v.iter().map(|a| a * a).sum::<f64>().sqrt();
            v = mv.map(|a| a / size);
        }
        0.5 * largest + self.l2
    }
}

/// How the step is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Method {
    /// The Newton-CG direction, then backtracking.
    Newton,
    /// `-∇f`, then backtracking.
    Descent,
    /// `-t ∇f` for this `t`.
    FixedStep(f64),
}

/// One minimisation from zero.
#[derive(Clone, Debug)]
struct Run {
    /// The last iterate.
    w: [f64; PARAMS],
    /// The loss and the gradient norm at every iterate, the start included.
    history: Vec<(f64, f64)>,
    /// Hessian-vector products.
    products: usize,
    /// Loss evaluations of the line search.
    evaluations: usize,
    /// Whether the gradient norm went below the tolerance.
    converged: bool,
    /// Wall time.
    seconds: f64,
}

impl Run {
    fn iterations(&self) -> usize {
        self.history.len() - 1
    }

    fn loss(&self) -> f64 {
        self.history.last().map_or(f64::NAN, |h| h.0)
    }

    fn gradient_norm(&self) -> f64 {
        self.history.last().map_or(f64::NAN, |h| h.1)
    }
}

/// The first of the steps 1, ½, ¼, .. along `p` that decreases the loss enough (Armijo), or
/// `None` after `MAX_HALVINGS` (rounding leaves no decrease to find).
fn backtrack(
    problem: &Problem,
    w: &[f64; PARAMS],
    value: f64,
    g: &[f64; PARAMS],
    p: &[f64; PARAMS],
    evaluations: &mut usize,
) -> Option<f64> {
    let slope = dot(g, p);
    let mut t = 1.0;
    for _ in 0..MAX_HALVINGS {
        *evaluations += 1;
        if problem.value(&moved(w, t, p)) <= value + ARMIJO * t * slope {
            return Some(t);
        }
        t *= 0.5;
    }
    None
}

/// Minimises the loss from `w = 0` with `method` until `‖∇f‖ < tolerance`, for at most
/// `max_iters` iterations (or until the line search finds no decrease).
fn minimize(problem: &Problem, method: Method, tolerance: f64, max_iters: usize) -> Run {
    let start = Instant::now();
    let mut w = [0.0; PARAMS];
    let (mut value, mut g) = problem.gradient(&w);
    let mut run = Run {
        w,
        history: vec![(value, norm(&g))],
        products: 0,
        evaluations: 0,
        converged: false,
        seconds: 0.0,
    };
    while norm(&g) >= tolerance && run.iterations() < max_iters {
        let direction = match method {
            Method::Newton => {
                let step = hessian::newton_cg(
                    &g,
                    |v: &[f64; PARAMS], out: &mut [f64; PARAMS]| {
                        *out = problem.hessian_times(&w, v);
                    },
                    &CgOptions::default(),
                )
                .expect("the logistic loss has a finite gradient and Hessian");
                run.products += step.products;
                step.direction
            }
            Method::Descent | Method::FixedStep(_) => g.map(|gk| -gk),
        };
        let t = match method {
            Method::FixedStep(t) => t,
            Method::Newton | Method::Descent => {
                match backtrack(problem, &w, value, &g, &direction, &mut run.evaluations) {
                    Some(t) => t,
                    None => break,
                }
            }
        };
        w = moved(&w, t, &direction);
        (value, g) = problem.gradient(&w);
        run.history.push((value, norm(&g)));
    }
    run.w = w;
    run.converged = norm(&g) < tolerance;
    run.seconds = start.elapsed().as_secs_f64();
    run
}

/// Newton-CG and gradient descent on softmax regression of the bundled iris data.
#[derive(Parser, Debug)]
struct Args {
    /// The L2 penalty λ (the loss adds λ · ½ ‖W‖², biases included).
    #[arg(long, default_value_t = 1e-3, value_parser = positive)]
    l2: f64,
    /// Stop once the gradient norm is below this.
    #[arg(long, default_value_t = 1e-8, value_parser = positive)]
    tolerance: f64,
    /// At most this many iterations of each method.
    #[arg(long, default_value_t = 100_000)]
    max_iters: usize,
    /// Where to write the plot of log10(loss - minimum) per iteration (SVG; directories are
    /// created).
    #[arg(
        long,
        value_name = "PATH",
        default_value = "target/newton_logistic/convergence.svg"
    )]
    plot: PathBuf,
}

/// A positive, finite number.
fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(_) => Err(format!("`{text}` is not positive and finite")),
        Err(_) => Err(format!("`{text}` is not a number")),
    }
}

/// At most `max` of `points`, evenly spaced, the last one kept.
fn thinned(points: &[(u64, f64)], max: usize) -> Vec<(u64, f64)> {
    let every = points.len().div_ceil(max).max(1);
    let mut kept: Vec<(u64, f64)> = points.iter().copied().step_by(every).collect();
    if let Some(&last) = points.last()
        && kept.last() != Some(&last)
    {
        kept.push(last);
    }
    kept
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = Args::parse();
    let problem = Problem::iris(args.l2)?;
    let bound = problem.curvature_bound();
    println!(
        "iris: {ROWS} rows, {FEATURES} standardized features, {CLASSES} classes; \
         softmax regression, {PARAMS} parameters, λ = {:e}; stop at ‖∇f‖ < {:e} or {} iterations",
        args.l2, args.tolerance, args.max_iters
    );
    let methods = [
        ("Newton-CG + backtracking", Method::Newton),
        ("gradient descent + backtracking", Method::Descent),
        (
            &*format!("gradient descent, step 1/L = {:.3}", 1.0 / bound),
            Method::FixedStep(1.0 / bound),
        ),
    ];
    let runs: Vec<(&str, Run)> = methods
        .iter()
        .map(|&(name, method)| {
            (
                name,
                minimize(&problem, method, args.tolerance, args.max_iters),
            )
        })
        .collect();

    println!();
    println!(
        "{:<34} {:>10} {:>9} {:>6} {:>10} {:>20} {:>9} {:>9} {:>10}",
        "method",
        "iterations",
        "gradients",
        "H·v",
        "loss evals",
        "final loss",
        "‖∇f‖",
        "accuracy",
        "time"
    );
    for (name, run) in &runs {
        println!(
            "{name:<34} {:>10} {:>9} {:>6} {:>10} {:>20.16} {:>9.2e} {:>7.2} % {:>7.2} ms{}",
            run.iterations(),
            run.iterations() + 1,
            run.products,
            run.evaluations,
            run.loss(),
            run.gradient_norm(),
            100.0 * problem.accuracy(&run.w),
            1e3 * run.seconds,
            if run.converged {
                ""
            } else {
                "  (not converged)"
            }
        );
    }

    let newton = &runs[0].1;
    let norms: Vec<String> = newton
        .history
        .iter()
        .map(|h| format!("{:.1e}", h.1))
        .collect();
    println!();
    println!("Newton-CG, ‖∇f‖ at each iterate: {}", norms.join(" "));

    // The distance to the smallest loss seen, floored at its rounding (so that the run which
    // found it ends on the plot too).
    let minimum = runs
        .iter()
        .flat_map(|(_, run)| run.history.iter().map(|h| h.0))
        .fold(f64::INFINITY, f64::min);
    let floor = f64::EPSILON * minimum.abs();
    let curves: Vec<Vec<(u64, f64)>> = runs
        .iter()
        .map(|(_, run)| {
            let points: Vec<(u64, f64)> = (0u64..)
                .zip(
                    run.history
                        .iter()
                        .map(|h| (h.0 - minimum).max(floor).log10()),
                )
                .collect();
            thinned(&points, 1000)
        })
        .collect();
    let series: Vec<(&str, &[(u64, f64)])> = runs
        .iter()
        .zip(&curves)
        .map(|((name, _), points)| (*name, points.as_slice()))
        .collect();
    if let Some(dir) = args.plot.parent() {
        std::fs::create_dir_all(dir)?;
    }
    plot_loss_curves(
        &args.plot,
        "iris softmax regression: log10(loss - minimum) per iteration",
        "iteration",
        &series,
    )?;
    println!();
    println!("wrote {}", args.plot.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn iris() -> Problem {
        Problem::iris(1e-3).expect("the bundled iris data")
    }

    #[test]
    fn hessian_vector_product_matches_central_differences_of_the_gradient() {
        let problem = iris();
        let mut rng = SmallRng::seed_from_u64(15);
        let w: [f64; PARAMS] = core::array::from_fn(|_| rng.gen_range(-1.0..1.0));
        let v: [f64; PARAMS] = core::array::from_fn(|_| rng.gen_range(-1.0..1.0));
        let hv = problem.hessian_times(&w, &v);
        let h = 1e-5;
        let (_, plus) = problem.gradient(&moved(&w, h, &v));
        let (_, minus) = problem.gradient(&moved(&w, -h, &v));
        let fd: [f64; PARAMS] = core::array::from_fn(|k| (plus[k] - minus[k]) / (2.0 * h));
        let (k, worst) = (0..PARAMS)
            .map(|k| (k, (hv[k] - fd[k]).abs()))
            .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
        // Truncation h² |f''''| and rounding ε |∇f| / h, both below 1e-10 here (measured: 2e-11).
        assert!(
            worst < 1e-8 * (1.0 + norm(&fd)),
            "H v against central differences: largest difference {worst:e} at {k}; \
             H v starts {:?}, central differences {:?}",
            &hv[..4],
            &fd[..4]
        );
    }

    /// `h = L Lᵀ`, or the index of the first non-positive pivot.
    fn cholesky(h: &[[f64; PARAMS]; PARAMS]) -> Result<(), usize> {
        let mut l = [[0.0; PARAMS]; PARAMS];
        for i in 0..PARAMS {
            for j in 0..=i {
                let s = h[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
                if i == j {
                    if s <= 0.0 {
                        return Err(i);
                    }
                    l[i][i] = s.sqrt();
                } else {
                    l[i][j] = s / l[j][j];
                }
            }
        }
        Ok(())
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // the Hessian's two triangles, by index
    fn newton_converges_in_a_handful_of_iterations_and_descent_does_not() {
        let problem = iris();
        let newton = minimize(&problem, Method::Newton, 1e-8, 15);
        assert!(
            newton.converged,
            "Newton-CG: ‖∇f‖ = {:e} after {} iterations",
            newton.gradient_norm(),
            newton.iterations()
        );
        assert!(newton.gradient_norm() < 1e-8);

        // The Hessian at the minimum: symmetric, and at least λ I (the data's part is positive
        // semi-definite), so H - 0.99 λ I has a Cholesky factor.
        let mut h = hessian::dense(|v: &[f64; PARAMS], out: &mut [f64; PARAMS]| {
            *out = problem.hessian_times(&newton.w, v);
        });
        let scale = h.iter().flatten().fold(0.0f64, |a, b| a.max(b.abs()));
        for i in 0..PARAMS {
            for j in 0..i {
                assert!(
                    (h[i][j] - h[j][i]).abs() <= 1e-12 * scale,
                    "H[{i}][{j}] = {:e}, H[{j}][{i}] = {:e}",
                    h[i][j],
                    h[j][i]
                );
            }
            h[i][i] -= 0.99 * problem.l2;
        }
        assert_eq!(
            cholesky(&h),
            Ok(()),
            "H - 0.99 λ I is not positive definite"
        );

        // Gradient descent with the same line search, from the same start: not there after 99
        // iterations (it needs thousands).
        let descent = minimize(&problem, Method::Descent, 1e-8, 99);
        assert!(
            !descent.converged && descent.gradient_norm() > 1e-6,
            "gradient descent: ‖∇f‖ = {:e} after {} iterations",
            descent.gradient_norm(),
            descent.iterations()
        );
        assert!(descent.loss() > newton.loss());
    }

    #[test]
    fn curvature_bound_is_above_the_hessian_at_zero() {
        // Every eigenvalue of H(w) is at most L (Böhning); checked at the start, w = 0.
        let problem = iris();
        let bound = problem.curvature_bound();
        let h = hessian::dense(|v: &[f64; PARAMS], out: &mut [f64; PARAMS]| {
            *out = problem.hessian_times(&[0.0; PARAMS], v);
        });
        // The largest eigenvalue by power iteration on the dense Hessian.
        let mut v = [1.0; PARAMS];
        let mut largest = 0.0;
        for _ in 0..500 {
            let hv: [f64; PARAMS] = core::array::from_fn(|i| dot(&h[i], &v));
            largest = norm(&hv) / norm(&v);
            v = hv.map(|a| a / norm(&hv));
        }
        assert!(largest <= bound, "λmax(H(0)) = {largest} > L = {bound}");
    }

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(["newton_logistic"].iter().chain(args))
    }

    #[test]
    fn options() {
        let args = parse(&[]).unwrap();
        assert_eq!(
            (args.l2, args.tolerance, args.max_iters),
            (1e-3, 1e-8, 100_000)
        );
        assert_eq!(
            args.plot,
            PathBuf::from("target/newton_logistic/convergence.svg")
        );
        let args = parse(&["--l2", "0.01", "--plot", "x.svg", "--max-iters", "50"]).unwrap();
        assert_eq!((args.l2, args.max_iters), (0.01, 50));
        assert_eq!(args.plot, PathBuf::from("x.svg"));
        assert!(parse(&["--l2", "0"]).is_err());
        assert!(parse(&["--tolerance", "x"]).is_err());
        assert_eq!(parse(&["--help"]).unwrap_err().exit_code(), 0);
    }

    #[test]
    fn thinning_keeps_the_ends() {
        let points: Vec<(u64, f64)> = (0..2500).map(|i| (i, i as f64)).collect();
        let kept = thinned(&points, 1000);
        assert!(kept.len() <= 1001);
        assert_eq!((kept[0], kept[kept.len() - 1]), ((0, 0.0), (2499, 2499.0)));
        assert_eq!(thinned(&points[..3], 1000), points[..3]);
    }
}
