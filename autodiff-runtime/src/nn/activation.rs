//! Elementwise activations: relu, gelu (tanh form), tanh, sigmoid.
//!
//! Shapes: `x`, `y`, `d_x`, `d_out` `[R][C]`. The tapes are empty: each derivative is recomputed
//! from `x`, which the adjoint receives again, instead of storing `R * C` floats per call.

use crate::math;

/// `sqrt(2 / π)`, the scale inside the tanh form of gelu.
const GELU_SCALE: f32 = 0.797_884_6;
/// The cubic coefficient of the tanh form of gelu.
const GELU_CUBIC: f32 = 0.044_715;

/// Defines the four items of an elementwise activation from its value and its derivative, both
/// functions of the input.
macro_rules! elementwise {
    ($(
        $(#[$doc:meta])*
        $op:ident, $forward:ident, $forward_into:ident, $adjoint:ident, $tape:ident:
        value $value:expr, derivative $derivative:expr;
    )*) => {$(
        tape! {
            #[doc = concat!("What [`", stringify!($adjoint), "`] reads besides the arguments: nothing.")]
            pub struct $tape<const R: usize, const C: usize> {}
        }

        $(#[$doc])*
        ///
        /// Shapes: `x` `[R][C]` -> `[R][C]`.
        #[must_use]
        pub fn $op<const R: usize, const C: usize>(x: &[[f32; C]; R]) -> [[f32; C]; R] {
            map(x, $value)
        }

        #[doc = concat!("[`", stringify!($op), "`], recording its (empty) tape.")]
        pub fn $forward<const R: usize, const C: usize>(
            x: &[[f32; C]; R],
            _tape: &mut $tape<R, C>,
        ) -> [[f32; C]; R] {
            $op(x)
        }

        #[doc = concat!("[`", stringify!($forward), "`] into `out`, every element of which it overwrites: a caller's forward sweep writes a recorded output straight into its tape slot, with no copy.")]
        pub fn $forward_into<const R: usize, const C: usize>(
            x: &[[f32; C]; R],
            _tape: &mut $tape<R, C>,
            out: &mut [[f32; C]; R],
        ) {
            map_into(x, out, $value);
        }

        #[doc = concat!("Adds `d_out` times the derivative of [`", stringify!($op), "`] at `x` into `d_x`.")]
        ///
        /// Shapes: `x`, `d_out`, `d_x` `[R][C]`.
        pub fn $adjoint<const R: usize, const C: usize>(
            x: &[[f32; C]; R],
            _tape: &$tape<R, C>,
            d_out: &[[f32; C]; R],
            d_x: &mut [[f32; C]; R],
        ) {
            map_adjoint(x, d_out, d_x, $derivative);
        }
    )*};
}

elementwise! {
    /// The rectified linear unit `max(x, 0)`, elementwise. Its derivative at 0 is taken as 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::nn::relu;
    ///
    /// assert_eq!(relu(&[[-1.0f32, 0.0, 2.0]]), [[0.0, 0.0, 2.0]]);
    /// ```
    relu, relu_forward, relu_forward_into, relu_adjoint, ReluTape:
    value |x| if x > 0.0 { x } else { 0.0 },
    derivative |x| if x > 0.0 { 1.0 } else { 0.0 };

    /// The Gaussian error linear unit in its tanh form (GPT-2's and PyTorch's
    /// `gelu(approximate="tanh")`): `0.5 x (1 + tanh(sqrt(2/π) (x + 0.044715 x³)))`.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::nn::gelu;
    ///
    /// let y = gelu(&[[0.0f32, 1.0, -1.0]]);
    /// assert_eq!(y[0][0], 0.0);
    /// assert!((y[0][1] - 0.841_192).abs() < 1e-6); // PyTorch: 0.8411920070648193
    /// assert!((y[0][2] + 0.158_808).abs() < 1e-6);
    /// ```
    gelu, gelu_forward, gelu_forward_into, gelu_adjoint, GeluTape:
    value |x| 0.5 * x * (1.0 + math::tanhf(GELU_SCALE * (x + GELU_CUBIC * x * x * x))),
    derivative |x| {
        let t = math::tanhf(GELU_SCALE * (x + GELU_CUBIC * x * x * x));
        0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * GELU_SCALE * (1.0 + 3.0 * GELU_CUBIC * x * x)
    };

    /// The hyperbolic tangent, elementwise.
    tanh, tanh_forward, tanh_forward_into, tanh_adjoint, TanhTape:
    value math::tanhf,
    derivative |x| {
        let t = math::tanhf(x);
        1.0 - t * t
    };

    /// The logistic function `1 / (1 + e^-x)`, elementwise.
    sigmoid, sigmoid_forward, sigmoid_forward_into, sigmoid_adjoint, SigmoidTape:
    value logistic,
    derivative |x| {
        let s = logistic(x);
        s * (1.0 - s)
    };
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + math::expf(-x))
}

fn map<const R: usize, const C: usize>(x: &[[f32; C]; R], f: impl Fn(f32) -> f32) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    map_into(x, &mut y, f);
    y
}

fn map_into<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    out: &mut [[f32; C]; R],
    f: impl Fn(f32) -> f32,
) {
    for (y, &x) in out.as_flattened_mut().iter_mut().zip(x.as_flattened()) {
        *y = f(x);
    }
}

fn map_adjoint<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    d_out: &[[f32; C]; R],
    d_x: &mut [[f32; C]; R],
    derivative: impl Fn(f32) -> f32,
) {
    let (x, d_out) = (x.as_flattened(), d_out.as_flattened());
    for ((d_x, &x), &d) in d_x.as_flattened_mut().iter_mut().zip(x).zip(d_out) {
        *d_x += d * derivative(x);
    }
}
