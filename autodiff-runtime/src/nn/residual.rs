//! Residual connection `a + b`.
//!
//! Shapes: `a`, `b`, output, `d_a`, `d_b`, `d_out` `[R][C]`.

tape! {
    /// What [`residual_add_adjoint`] reads besides the arguments: nothing.
    pub struct ResidualAddTape<const R: usize, const C: usize> {}
}

/// The elementwise sum `a + b`.
///
/// Shapes: `a`, `b` `[R][C]` -> `[R][C]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::residual_add;
///
/// assert_eq!(residual_add(&[[1.0f32, 2.0]], &[[0.5, -2.0]]), [[1.5, 0.0]]);
/// ```
#[must_use]
pub fn residual_add<const R: usize, const C: usize>(
    a: &[[f32; C]; R],
    b: &[[f32; C]; R],
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    add_into(a, b, &mut y);
    y
}

fn add_into<const R: usize, const C: usize>(
    a: &[[f32; C]; R],
    b: &[[f32; C]; R],
    out: &mut [[f32; C]; R],
) {
    let (a, b) = (a.as_flattened(), b.as_flattened());
    for ((y, a), b) in out.as_flattened_mut().iter_mut().zip(a).zip(b) {
        *y = a + b;
    }
}

/// [`residual_add`], recording its (empty) tape.
pub fn residual_add_forward<const R: usize, const C: usize>(
    a: &[[f32; C]; R],
    b: &[[f32; C]; R],
    _tape: &mut ResidualAddTape<R, C>,
) -> [[f32; C]; R] {
    residual_add(a, b)
}

/// [`residual_add_forward`] into `out`, every element of which it overwrites: a caller's
/// forward sweep writes a recorded output straight into its tape slot, with no copy.
pub fn residual_add_forward_into<const R: usize, const C: usize>(
    a: &[[f32; C]; R],
    b: &[[f32; C]; R],
    _tape: &mut ResidualAddTape<R, C>,
    out: &mut [[f32; C]; R],
) {
    add_into(a, b, out);
}

/// Adds `d_out` into both `d_a` and `d_b`.
///
/// Shapes: `a`, `b`, `d_out`, `d_a`, `d_b` `[R][C]`.
pub fn residual_add_adjoint<const R: usize, const C: usize>(
    _a: &[[f32; C]; R],
    _b: &[[f32; C]; R],
    _tape: &ResidualAddTape<R, C>,
    d_out: &[[f32; C]; R],
    d_a: &mut [[f32; C]; R],
    d_b: &mut [[f32; C]; R],
) {
    accumulate(d_a, d_out);
    accumulate(d_b, d_out);
}

fn accumulate<const R: usize, const C: usize>(acc: &mut [[f32; C]; R], x: &[[f32; C]; R]) {
    for (acc, x) in acc.as_flattened_mut().iter_mut().zip(x.as_flattened()) {
        *acc += x;
    }
}
