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

/// Writes an SVG plot of loss curves: one line per `(name, values)` series, `values[i]` at x = `i`
/// on an axis labelled "step", each in its own colour and listed in a legend.
///
/// When the values are not one per step (a loss every 100 steps, one per epoch), use
/// [`plot_loss_curves`], which takes the x of each point and the axis label.
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
/// plot_losses("loss.svg", "loss per step", &[("train", &train), ("validation", &val)])?;
/// # Ok::<(), autodiff_runtime::train::PlotError>(())
/// ```
pub fn plot_losses(
    path: impl AsRef<Path>,
    title: &str,
    series: &[(&str, &[f64])],
) -> Result<(), PlotError> {
    let points: std::vec::Vec<std::vec::Vec<(u64, f64)>> = series
        .iter()
        .map(|(_, values)| (0u64..).zip(values.iter().copied()).collect())
        .collect();
    let curves: std::vec::Vec<(&str, &[(u64, f64)])> = series
        .iter()
        .zip(&points)
        .map(|((name, _), p)| (*name, p.as_slice()))
        .collect();
    plot_loss_curves(path, title, "step", &curves)
}

/// Writes an SVG plot of loss curves: one line per `(name, points)` series, each point
/// `(x, loss)` (x a step or epoch number), each series in its own colour and listed in a legend.
/// The x axis, labelled `x_label`, spans the smallest to the largest x of all series.
///
/// The file is replaced whole (a failed write leaves an existing one as it was); it keeps its
/// permissions, and a symbolic link at `path` stays one: the file it points to is replaced.
///
/// Non-finite losses are left out of the line. Characters that XML does not allow in the title,
/// the label or a name (control characters other than tab, line feed and carriage return) are
/// drawn as U+FFFD `�`; `<`, `&` and quotes are escaped.
///
/// # Errors
///
/// [`PlotError`] if there is nothing finite to plot or the file cannot be written.
///
/// # Examples
///
/// ```no_run
/// use autodiff_runtime::train::plot_loss_curves;
///
/// // The mean training loss of each 100 steps, and a validation loss at the same steps.
/// let train = [(100, 2.9), (200, 2.6), (300, 2.5)];
/// let val = [(100, 2.95), (200, 2.7), (300, 2.6)];
/// plot_loss_curves("loss.svg", "loss", "step", &[("train", &train), ("validation", &val)])?;
/// # Ok::<(), autodiff_runtime::train::PlotError>(())
/// ```
pub fn plot_loss_curves(
    path: impl AsRef<Path>,
    title: &str,
    x_label: &str,
    series: &[(&str, &[(u64, f64)])],
) -> Result<(), PlotError> {
    let path = path.as_ref();
    let fail = |reason: String| PlotError {
        path: path.to_owned(),
        reason,
    };
    let svg = loss_curves_svg(title, x_label, series).map_err(fail)?;
    crate::file::replace(path, |tmp| std::fs::write(tmp, svg.as_bytes()))
        .map_err(|e: std::io::Error| fail(e.to_string()))
}

/// `text` with the characters XML 1.0 forbids replaced by U+FFFD: `plotters` escapes markup but
/// writes control characters as they are, and an XML reader then rejects the whole file.
fn xml_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            '\u{0}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}' => char::REPLACEMENT_CHARACTER,
            c => c,
        })
        .collect()
}

/// The SVG text of [`plot_loss_curves`].
fn loss_curves_svg(
    title: &str,
    x_label: &str,
    series: &[(&str, &[(u64, f64)])],
) -> Result<String, String> {
    use plotters::prelude::*;

    let (title, x_label) = (xml_text(title), xml_text(x_label));

    let finite = || {
        series
            .iter()
            .flat_map(|(_, points)| points.iter().copied())
            .filter(|(_, y)| y.is_finite())
    };
    let (lo, hi) = finite().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, y)| {
        (lo.min(y), hi.max(y))
    });
    if lo > hi {
        return Err("no finite values to plot".into());
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    let (y_lo, y_hi) = (lo - pad, hi + pad);
    // The axis needs a finite span (with an infinite one the tick search never ends).
    if !(y_hi - y_lo).is_finite() {
        return Err(std::format!(
            "the values span {lo:e} to {hi:e}, too wide an axis for an f64"
        ));
    }
    let (x_min, x_max) = finite().fold((u64::MAX, 0), |(a, b), (x, _)| (a.min(x), b.max(x)));
    let x_max = x_max.max(x_min.saturating_add(1));
    let x_min = x_min.min(x_max - 1);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        let draw = || -> Result<(), std::boxed::Box<dyn core::error::Error + '_>> {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(&title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(x_min..x_max, y_lo..y_hi)?;
            chart
                .configure_mesh()
                .x_desc(&x_label)
                .y_desc("loss")
                .draw()?;
            for (k, (name, points)) in series.iter().enumerate() {
                let color = Palette99::pick(k).to_rgba();
                let points = points.iter().copied().filter(|(_, y)| y.is_finite());
                chart
                    .draw_series(LineSeries::new(points, color.stroke_width(2)))?
                    .label(xml_text(name))
                    .legend(move |(x, y)| {
                        PathElement::new(std::vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()?;
            root.present()?;
            Ok(())
        };
        draw().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// The points of every polyline drawn with the curves' stroke width, in drawing order.
    fn curves(svg: &str) -> Vec<Vec<(f64, f64)>> {
        svg.split("<polyline")
            .skip(1)
            .filter(|p| p.contains(r#"stroke-width="2""#))
            .map(|p| {
                let points = p.split(r#"points=""#).nth(1).unwrap();
                let points = &points[..points.find('"').unwrap()];
                points
                    .split_whitespace()
                    .map(|xy| {
                        let (x, y) = xy.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    /// The texts of the SVG (title, axis labels, ticks, legend).
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim())
            .collect()
    }

    /// Curves at steps 100, 200, .. 1000 and at 500 and 1000 only: the x axis is in steps (its
    /// ticks read 100 to 1000), every curve spans its own steps, and the legend names both.
    #[test]
    fn curves_are_plotted_against_their_step_numbers() {
        let train: Vec<(u64, f64)> = (1..=10).map(|k| (100 * k, 3.0 - 0.1 * k as f64)).collect();
        let val = [(500, 2.8), (1000, 2.5)];
        let svg =
            loss_curves_svg("title", "step", &[("train", &train), ("validation", &val)]).unwrap();

        let texts = texts(&svg);
        for label in [
            "title",
            "step",
            "loss",
            "100",
            "500",
            "1000",
            "train",
            "validation",
        ] {
            assert!(texts.contains(&label), "no text {label:?} in {texts:?}");
        }
        assert!(
            !texts.contains(&"0"),
            "the axis should start at step 100: {texts:?}"
        );

        let lines = curves(&svg);
        // The two curves, then the two legend samples.
        assert_eq!(lines.len(), 4, "{lines:?}");
        let (train_line, val_line) = (&lines[0], &lines[1]);
        assert_eq!((train_line.len(), val_line.len()), (10, 2));
        let (left, right) = (train_line[0].0, train_line[9].0);
        assert!(
            right - left > 600.0,
            "the curve should span the plot: {train_line:?}"
        );
        // x is linear in the step: step 100 k at left + (k - 1) / 9 of the width.
        let x_of = |step: f64| left + (right - left) * (step - 100.0) / 900.0;
        for (k, &(x, _)) in train_line.iter().enumerate() {
            assert!(
                (x - x_of(100.0 * (k + 1) as f64)).abs() <= 1.0,
                "{train_line:?}"
            );
        }
        assert!((val_line[0].0 - x_of(500.0)).abs() <= 1.0, "{val_line:?}");
        assert!((val_line[1].0 - right).abs() <= 1.0, "{val_line:?}");
        // Lower loss is lower on the page (larger SVG y).
        assert!(train_line[9].1 > train_line[0].1);
    }

    #[test]
    fn markup_and_control_characters_in_texts_give_well_formed_svg() {
        // Control characters were written as they are: no XML reader opened the file.
        let title = "a<b & \"c\" 'd' \u{1}\u{0}\u{1b}[31m\u{FFFF}\tline\nnext";
        let series: [(&str, &[(u64, f64)]); 1] = [("loss\u{8}&", &[(0, 1.0), (1, 0.5)])];
        let svg = loss_curves_svg(title, "x\u{7}<>", &series).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"));
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        for want in [
            "a<b & \"c\" 'd' \u{FFFD}\u{FFFD}\u{FFFD}[31m\u{FFFD}\tline\nnext",
            "x\u{FFFD}<>",
            "loss\u{FFFD}&",
        ] {
            assert!(texts.contains(&want), "no text {want:?} in {texts:?}");
        }
    }

    /// The plot was written to a new file renamed over the old one: a link to it became a file
    /// of its own, and the file took the default permissions instead of its own.
    #[cfg(unix)]
    #[test]
    fn a_plot_keeps_permissions_and_writes_through_a_symbolic_link() {
        use std::os::unix::fs::{PermissionsExt, symlink};

        let dir =
            std::env::temp_dir().join(std::format!("autodiff-runtime-plot-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (target, link) = (dir.join("loss.svg"), dir.join("latest.svg"));
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        symlink("loss.svg", &link).unwrap();
        plot_losses(&link, "loss", &[("train", &[2.0, 1.0])]).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert!(
            std::fs::read_to_string(&target)
                .unwrap()
                .starts_with("<svg")
        );
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_finite_is_an_error_naming_the_file() {
        let err =
            plot_loss_curves("/tmp/x.svg", "t", "step", &[("a", &[(1, f64::NAN)])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/tmp/x.svg: cannot draw the plot: no finite values to plot"
        );
    }
}
