//! Neural-network primitives with hand-written adjoints, in `f32`.
//!
//! Every op `op` comes as the same four items `#[differentiable]` generates for a function, so a
//! differentiable function calls it like any other differentiable callee:
//!
//! | item | what it does |
//! | --- | --- |
//! | `op(args) -> out` | the primal |
//! | `OpTape` | what the adjoint reads and cannot get from the arguments again; `OpTape::new()` (a `const fn`, zeroed), `Default`, `Clone`, `Debug`, `OpTape::BYTES` |
//! | `op_forward(args, &mut tape) -> out` | the same value as `op`, and records the tape |
//! | `op_forward_into(args, &mut tape, out)` | `op_forward` for an array output, written into `out` (every element overwritten): the forward sweep of a caller writes a recorded output straight into its tape slot with it |
//! | `op_adjoint(args, &tape, d_out, d_arg..)` | **adds** `d_out` times the Jacobian into one `d_` buffer per float argument, in parameter order |
//!
//! Arrays are passed by reference and outputs returned by value; `d_out` comes by value for a
//! float output (the losses) and by reference for an array output, as `#[differentiable]`
//! functions take it. Integer arguments (targets, token ids) get no `d_` buffer.
//!
//! The const generics of an op and of its tape are the dimensions in the order they first appear
//! in the parameters, outermost first (`linear::<R, I, O>` for `x: [[f32; I]; R]`,
//! `w: [[f32; I]; O]`), so the compiler infers them at a call. The one exception is
//! `causal_self_attention_rows::<T, H, D, R, C>`, whose sequence length and head sizes no
//! parameter type shows: they come first and are named at the call. Nothing allocates and
//! nothing uses `unsafe`.
//!
//! Shapes, in the comments of every kernel: `B` batch, `T` time, `C` channels, `R` rows, `I` in,
//! `O` out, `H` heads, `D` head size, `V` vocabulary, and `M`, `K`, `N` for a matrix product.
//!
//! # Examples
//!
//! A linear layer followed by the cross-entropy loss, and its gradient by hand:
//!
//! ```
//! use autodiff_runtime::nn::{
//!     CrossEntropyTape, LinearTape, cross_entropy_adjoint, cross_entropy_forward, linear_adjoint,
//!     linear_forward,
//! };
//!
//! let x = [[1.0f32, 2.0]];               // R = 1 row, I = 2
//! let w = [[0.0f32, 0.0], [0.0, 0.0]];   // O = 2 classes
//! let b = [0.0f32; 2];
//! let targets = [1];
//!
//! let mut lin = LinearTape::new();
//! let mut ce = CrossEntropyTape::new();
//! let logits = linear_forward(&x, &w, &b, &mut lin);
//! let loss = cross_entropy_forward(&logits, &targets, &mut ce);
//! assert!((loss - 2.0f32.ln()).abs() < 1e-6); // two equal logits: ln 2
//!
//! let mut d_logits = [[0.0f32; 2]];
//! cross_entropy_adjoint(&logits, &targets, &ce, 1.0, &mut d_logits);
//! let (mut d_x, mut d_w, mut d_b) = ([[0.0f32; 2]], [[0.0f32; 2]; 2], [0.0f32; 2]);
//! linear_adjoint(&x, &w, &b, &lin, &d_logits, &mut d_x, &mut d_w, &mut d_b);
//! // d loss / d logits = softmax - one_hot = [0.5, -0.5]; d_w = that times x.
//! assert_eq!(d_b, [0.5, -0.5]);
//! assert_eq!(d_w, [[0.5, 1.0], [-0.5, -1.0]]);
//! ```

/// Defines a tape struct with public, documented fields, each with its zero value, and the items
/// every tape has: `new()` (a `const fn`), `BYTES`, `Default`, `Clone` and `Debug`.
macro_rules! tape {
    (
        $(#[$meta:meta])*
        pub struct $name:ident<$(const $g:ident: usize),*> {
            $($(#[$field_meta:meta])* pub $field:ident: $ty:ty = $zero:expr,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        pub struct $name<$(const $g: usize),*> {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl<$(const $g: usize),*> $name<$($g),*> {
            /// The exact size of the tape in bytes.
            pub const BYTES: usize = core::mem::size_of::<Self>();

            /// A zeroed tape, ready to be filled by the forward pass.
            #[must_use]
            pub const fn new() -> Self {
                Self { $($field: $zero,)* }
            }
        }

        impl<$(const $g: usize),*> Default for $name<$($g),*> {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

/// `Σ x` in a fixed order the compiler can keep in one vector register: eight interleaved partial
/// sums (lane `j` adds elements `j`, `j + 8`, ..), added pairwise at the end. A plain running sum
/// is a chain of dependent scalar additions, as Rust never reorders float arithmetic itself.
#[inline(always)]
fn sum_lanes(x: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let mut chunks = x.chunks_exact(8);
    for chunk in &mut chunks {
        for (acc, &x) in acc.iter_mut().zip(chunk) {
            *acc += x;
        }
    }
    for (acc, &x) in acc.iter_mut().zip(chunks.remainder()) {
        *acc += x;
    }
    crate::wide::sum8(acc)
}

/// The largest element (`-inf` for none), in the lane order of [`sum_lanes`]; NaN elements are
/// skipped, as by `f32::max`.
#[inline(always)]
fn max_lanes(x: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; 8];
    let mut chunks = x.chunks_exact(8);
    for chunk in &mut chunks {
        for (acc, &x) in acc.iter_mut().zip(chunk) {
            *acc = acc.max(x);
        }
    }
    for (acc, &x) in acc.iter_mut().zip(chunks.remainder()) {
        *acc = acc.max(x);
    }
    acc.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x))
}

mod activation;
mod attention;
mod embedding;
mod feed_forward;
mod gemm;
mod layer_norm;
mod linear;
mod loss;
mod matmul;
mod residual;
mod softmax;

pub use activation::{
    GeluTape, ReluTape, SigmoidTape, TanhTape, gelu, gelu_adjoint, gelu_forward, gelu_forward_into,
    relu, relu_adjoint, relu_forward, relu_forward_into, sigmoid, sigmoid_adjoint, sigmoid_forward,
    sigmoid_forward_into, tanh, tanh_adjoint, tanh_forward, tanh_forward_into,
};
pub use attention::{
    CausalSelfAttentionRowsTape, CausalSelfAttentionTape, causal_self_attention,
    causal_self_attention_adjoint, causal_self_attention_forward,
    causal_self_attention_forward_into, causal_self_attention_rows,
    causal_self_attention_rows_adjoint, causal_self_attention_rows_forward,
    causal_self_attention_rows_forward_into,
};
pub use embedding::{
    EmbeddingTape, TokenPositionEmbeddingTape, embedding, embedding_adjoint, embedding_forward,
    embedding_forward_into, token_position_embedding, token_position_embedding_adjoint,
    token_position_embedding_forward, token_position_embedding_forward_into,
};
pub use feed_forward::{
    FeedForwardAddTape, feed_forward_add, feed_forward_add_adjoint, feed_forward_add_forward,
    feed_forward_add_forward_into,
};
pub use layer_norm::{
    LayerNormTape, layer_norm, layer_norm_adjoint, layer_norm_forward, layer_norm_forward_into,
};
pub use linear::{
    LinearAddTape, LinearReluTape, LinearTape, linear, linear_add, linear_add_adjoint,
    linear_add_forward, linear_add_forward_into, linear_adjoint, linear_forward,
    linear_forward_into, linear_relu, linear_relu_adjoint, linear_relu_forward,
    linear_relu_forward_into,
};
pub use loss::{
    CrossEntropyTape, MseTape, cross_entropy, cross_entropy_adjoint, cross_entropy_forward, mse,
    mse_adjoint, mse_forward,
};
pub use matmul::{MatmulTape, matmul, matmul_adjoint, matmul_forward, matmul_forward_into};
pub use residual::{
    ResidualAddTape, residual_add, residual_add_adjoint, residual_add_forward,
    residual_add_forward_into,
};
pub use softmax::{
    LogSoftmaxTape, SoftmaxTape, log_softmax, log_softmax_adjoint, log_softmax_forward,
    log_softmax_forward_into, softmax, softmax_adjoint, softmax_forward, softmax_forward_into,
};
