//! The miniature GPT of the `shakespeare_gpt` example: parameters, the differentiable loss, and one
//! training step. Shared with `benches/gpt.rs`.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use stackgrad::runtime::optim::{AdamW, AdamWConfig, ConfigError, Optimizer};
use stackgrad::runtime::{init, nn};
use stackgrad::{Parameters, differentiable};

/// Vocabulary, context, channels, heads, head size, layers, feed-forward width, batch.
pub const V: usize = 65;
pub const T: usize = 8;
pub const C: usize = 24;
pub const H: usize = 6;
pub const D: usize = 4;
pub const L: usize = 6;
pub const F: usize = 96;
pub const B: usize = 64;
/// Rows of a batch: `B * T` token positions.
pub const R: usize = B * T;

/// One transformer block: attention and feed-forward, each after a layer norm.
#[derive(Parameters, Clone, Debug)]
pub struct Block {
    pub ln1_g: [f32; C],
    pub ln1_b: [f32; C],
    pub wq: [[f32; C]; C],
    pub bq: [f32; C],
    pub wk: [[f32; C]; C],
    pub bk: [f32; C],
    pub wv: [[f32; C]; C],
    pub bv: [f32; C],
    pub wo: [[f32; C]; C],
    pub bo: [f32; C],
    pub ln2_g: [f32; C],
    pub ln2_b: [f32; C],
    pub w1: [[f32; C]; F],
    pub b1: [f32; F],
    pub w2: [[f32; F]; C],
    pub b2: [f32; C],
}

/// The model: token and position embeddings, the blocks, a final layer norm and the head.
#[derive(Parameters, Clone, Debug)]
pub struct Gpt {
    pub wte: [[f32; C]; V],
    pub wpe: [[f32; C]; T],
    pub blocks: [Block; L],
    pub lnf_g: [f32; C],
    pub lnf_b: [f32; C],
    pub head_w: [[f32; C]; V],
    pub head_b: [f32; V],
}

/// The logits of every position of `NR / T` sequences of `T` tokens (`NR` rows).
///
/// The feed-forward ReLU is fused into its linear layer (`nn::linear_relu`), whose tape keeps a
/// flag per output instead of the pre-activation.
#[differentiable(wrt(p))]
pub fn gpt_logits<const NR: usize>(p: &Gpt, tokens: &[usize; NR]) -> [[f32; V]; NR] {
    let mut x: [[f32; C]; NR] = nn::token_position_embedding::<V, T, C, NR>(&p.wte, &p.wpe, tokens);
    for l in 0..L {
        let h: [[f32; C]; NR] = nn::layer_norm::<NR, C>(&x, &p.blocks[l].ln1_g, &p.blocks[l].ln1_b);
        let q: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wq, &p.blocks[l].bq);
        let k: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wk, &p.blocks[l].bk);
        let v: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wv, &p.blocks[l].bv);
        let a: [[f32; C]; NR] = nn::causal_self_attention_rows::<T, H, D, NR, C>(&q, &k, &v);
        let o: [[f32; C]; NR] = nn::linear::<NR, C, C>(&a, &p.blocks[l].wo, &p.blocks[l].bo);
        x = nn::residual_add::<NR, C>(&x, &o);
        let h2: [[f32; C]; NR] =
            nn::layer_norm::<NR, C>(&x, &p.blocks[l].ln2_g, &p.blocks[l].ln2_b);
        let f1r: [[f32; F]; NR] =
            nn::linear_relu::<NR, C, F>(&h2, &p.blocks[l].w1, &p.blocks[l].b1);
        let f2: [[f32; C]; NR] = nn::linear::<NR, F, C>(&f1r, &p.blocks[l].w2, &p.blocks[l].b2);
        x = nn::residual_add::<NR, C>(&x, &f2);
    }
    let hf: [[f32; C]; NR] = nn::layer_norm::<NR, C>(&x, &p.lnf_g, &p.lnf_b);
    nn::linear::<NR, C, V>(&hf, &p.head_w, &p.head_b)
}

/// The mean cross-entropy of predicting `targets` from `tokens`.
#[differentiable(wrt(p))]
pub fn gpt_loss<const NR: usize>(p: &Gpt, tokens: &[usize; NR], targets: &[usize; NR]) -> f32 {
    let logits: [[f32; V]; NR] = gpt_logits::<NR>(p, tokens);
    nn::cross_entropy::<NR, V>(&logits, targets)
}

/// GPT-2's initialisation, as the PyTorch reference uses it: weights and embeddings from
/// N(0, 0.02), biases 0, layer-norm gains 1.
pub fn init_gpt(rng: &mut SmallRng) -> Gpt {
    let mut p = Gpt::zeroed();
    let mut normal = |w: &mut [f32]| init::normal(w, 0.0, 0.02, rng);
    normal(p.wte.as_flattened_mut());
    normal(p.wpe.as_flattened_mut());
    for b in &mut p.blocks {
        for w in [&mut b.wq, &mut b.wk, &mut b.wv, &mut b.wo] {
            normal(w.as_flattened_mut());
        }
        normal(b.w1.as_flattened_mut());
        normal(b.w2.as_flattened_mut());
        b.ln1_g = [1.0; C];
        b.ln2_g = [1.0; C];
    }
    p.lnf_g = [1.0; C];
    normal(p.head_w.as_flattened_mut());
    p
}

/// Everything one training step on `NB` sequences (`NR = NB * T` rows) needs, allocated once.
pub struct GptTrainer<const NB: usize, const NR: usize> {
    pub params: Gpt,
    pub grads: Gpt,
    pub opt: AdamW<Gpt>,
    pub tape: Box<GptLossTape<NR>>,
}

/// The trainer of the example: batches of `B` sequences.
pub type Trainer = GptTrainer<B, R>;

impl<const NB: usize, const NR: usize> GptTrainer<NB, NR> {
    /// The zeroed tape as a constant: `Box::new` of a constant fills the heap allocation
    /// directly, where `Box::new(GptLossTape::new())` would build the 4.4 MiB value on the stack
    /// first (and those stack pages would stay in the process's resident memory).
    const EMPTY_TAPE: GptLossTape<NR> = GptLossTape::new();

    /// A model initialised from `seed`, and AdamW with PyTorch's defaults (lr 1e-3).
    #[allow(dead_code, reason = "benches/gpt.rs uses it; the example takes --lr")]
    pub fn new(seed: u64) -> Self {
        Self::with_lr(seed, AdamWConfig::default().lr).expect("PyTorch's AdamW defaults are valid")
    }

    /// As [`GptTrainer::new`] with the learning rate `lr`.
    ///
    /// # Errors
    ///
    /// If `lr` is negative or not finite.
    pub fn with_lr(seed: u64, lr: f64) -> Result<Self, ConfigError> {
        let params = init_gpt(&mut SmallRng::seed_from_u64(seed));
        let opt = AdamW::new(AdamWConfig {
            lr,
            ..AdamWConfig::default()
        })?;
        Ok(GptTrainer {
            params,
            grads: Gpt::zeroed(),
            opt,
            tape: Box::new(Self::EMPTY_TAPE),
        })
    }

    /// Zero the gradients, forward, reverse sweep, AdamW update; returns the loss.
    pub fn step(&mut self, x: &[usize; NR], y: &[usize; NR]) -> f32 {
        self.grads.zero();
        let loss = gpt_loss_forward::<NR>(&self.params, x, y, &mut self.tape);
        gpt_loss_adjoint::<NR>(&self.params, x, y, &self.tape, 1.0, &mut self.grads);
        self.opt.step(&mut self.params, &self.grads);
        loss
    }
}
