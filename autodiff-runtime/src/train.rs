//! Training-loop helpers (feature `std`): running means, accuracy, a progress bar and a loss-curve
//! plot.
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::train::{Accuracy, RunningMean};
//!
//! let mut loss = RunningMean::default();
//! let mut acc = Accuracy::default();
//! for (l, logits, label) in [(0.5, [0.1f32, 0.9], 1), (1.5, [2.0, -1.0], 1)] {
//!     loss.push(l);
//!     acc.push_logits(&logits, label);
//! }
//! assert_eq!(loss.mean(), Some(1.0));
//! assert_eq!(acc.fraction(), Some(0.5));
//! ```

use std::borrow::ToOwned;
use std::fmt;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};

use crate::math::Float;

/// The mean of the values pushed since the last reset (for example the loss over an epoch).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunningMean {
    sum: f64,
    count: u64,
}

impl RunningMean {
    /// Adds a value.
    pub fn push(&mut self, value: f64) {
        self.sum += value;
        self.count += 1;
    }

    /// The mean, or `None` before the first value.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// Number of values pushed.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Forgets every value.
    pub fn reset(&mut self) {
        *self = RunningMean::default();
    }
}

/// The index of the largest value (the first one on ties), or `None` for an empty slice or NaN.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::train::argmax;
///
/// assert_eq!(argmax(&[0.1f32, 3.0, -2.0, 3.0]), Some(1));
/// assert_eq!(argmax::<f64>(&[]), None);
/// assert_eq!(argmax(&[1.0, f64::NAN]), None);
/// ```
#[must_use]
pub fn argmax<F: Float>(values: &[F]) -> Option<usize> {
    let mut best: Option<(usize, F)> = None;
    for (i, &v) in values.iter().enumerate() {
        if v.is_nan() {
            return None;
        }
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

/// Counts correct predictions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accuracy {
    correct: u64,
    total: u64,
}

impl Accuracy {
    /// Records one prediction.
    pub fn push(&mut self, predicted: usize, label: usize) {
        self.correct += u64::from(predicted == label);
        self.total += 1;
    }

    /// Records the prediction `argmax(logits)` (wrong if the logits are empty or NaN).
    pub fn push_logits<F: Float>(&mut self, logits: &[F], label: usize) {
        self.correct += u64::from(argmax(logits) == Some(label));
        self.total += 1;
    }

    /// Correct predictions over all predictions, or `None` before the first.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn fraction(&self) -> Option<f64> {
        (self.total > 0).then(|| self.correct as f64 / self.total as f64)
    }

    /// Forgets every prediction.
    pub fn reset(&mut self) {
        *self = Accuracy::default();
    }
}

/// A terminal progress bar over training steps that shows the latest loss; hidden when standard
/// error is not a terminal (as in CI logs).
///
/// # Examples
///
/// ```
/// use autodiff_runtime::train::Progress;
///
/// let progress = Progress::new(100, "epoch 1");
/// for step in 0..100 {
///     progress.step(1.0 / (step as f64 + 1.0));
/// }
/// progress.finish();
/// ```
#[derive(Clone, Debug)]
pub struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar for `steps` steps, labelled `label`.
    #[must_use]
    pub fn new(steps: u64, label: &str) -> Self {
        let bar = indicatif::ProgressBar::new(steps);
        let style = indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {msg} ({eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        Progress { bar }
    }

    /// Advances one step and shows `loss`.
    pub fn step(&self, loss: f64) {
        self.bar.set_message(std::format!("loss {loss:.4}"));
        self.bar.inc(1);
    }

    /// Prints a line above the bar (on standard output when the bar is hidden, as it is when
    /// the output is not a terminal).
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            std::println!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Leaves the bar at its final state.
    pub fn finish(&self) {
        self.bar.finish();
    }
}

/// Why a plot could not be written.
#[derive(Debug)]
pub struct PlotError {
    /// The output file.
    pub path: PathBuf,
    /// What the plotting library reported.
    pub reason: String,
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: cannot draw the plot: {}",
            self.path.display(),
            self.reason
        )
    }
}

impl core::error::Error for PlotError {}

/// Writes an SVG plot of loss curves: one line per `(name, values)` series, `values[i]` at x = `i`,
/// each in its own colour and listed in a legend.
///
/// Non-finite values are left out of the line.
///
/// # Errors
///
/// [`PlotError`] if there is nothing finite to plot or the file cannot be written.
///
/// # Examples
///
/// ```no_run
/// use autodiff_runtime::train::plot_losses;
///
/// let train = [2.3, 1.1, 0.7, 0.5];
/// let val = [2.4, 1.3, 0.9, 0.8];
/// plot_losses("loss.svg", "loss per epoch", &[("train", &train), ("validation", &val)])?;
/// # Ok::<(), autodiff_runtime::train::PlotError>(())
/// ```
pub fn plot_losses(
    path: impl AsRef<Path>,
    title: &str,
    series: &[(&str, &[f64])],
) -> Result<(), PlotError> {
    use plotters::prelude::*;

    let path = path.as_ref();
    let fail = |reason: String| PlotError {
        path: path.to_owned(),
        reason,
    };
    let finite = || {
        series
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .filter(|v| v.is_finite())
    };
    let (lo, hi) = finite().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if lo > hi {
        return Err(fail("no finite values to plot".into()));
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    let steps = series
        .iter()
        .map(|(_, v)| v.len())
        .max()
        .unwrap_or(1)
        .max(2);

    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    let draw = || -> Result<(), std::boxed::Box<dyn core::error::Error>> {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(0..steps - 1, (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_desc("step")
            .y_desc("loss")
            .draw()?;
        for (k, (name, values)) in series.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let points = values
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(|(i, v)| (i, *v));
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))?
                .label(*name)
                .legend(move |(x, y)| {
                    PathElement::new(std::vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| fail(e.to_string()))
}
