//! The miniature GPT of the `shakespeare_gpt` example: parameters, the differentiable loss, and one
//! training step, on one thread or split over several. Shared with `benches/gpt.rs`.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use stackgrad::runtime::optim::{AdamW, AdamWConfig, ConfigError, Optimizer};
use stackgrad::runtime::parallel::DataParallel;
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
/// Written for a small tape: the feed-forward network is one op that adds into the residual
/// stream (`nn::feed_forward_add`: its tape keeps the hidden activation, whose sign is also the
/// ReLU's mask); the attention output projection adds into the residual stream as it computes it
/// (`nn::linear_add`, so the projection's output is not recorded); and the layer norms whose
/// output one op reads are recomputed in the reverse sweep from the residual stream, which the
/// tape keeps anyway (`#[recompute]`: a pass over `NR x C` floats instead of keeping 48 KiB per
/// layer norm at batch 64). The first layer norm of a block is recorded: `#[recompute]` on it
/// would save 288 KiB at batch 64 for 2-3 % of the step (BENCHMARKS.md).
#[differentiable(wrt(p))]
pub fn gpt_logits<const NR: usize>(p: &Gpt, tokens: &[usize; NR]) -> [[f32; V]; NR] {
    let mut x: [[f32; C]; NR] = nn::token_position_embedding::<V, T, C, NR>(&p.wte, &p.wpe, tokens);
    for l in 0..L {
        let h: [[f32; C]; NR] = nn::layer_norm::<NR, C>(&x, &p.blocks[l].ln1_g, &p.blocks[l].ln1_b);
        let q: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wq, &p.blocks[l].bq);
        let k: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wk, &p.blocks[l].bk);
        let v: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wv, &p.blocks[l].bv);
        let a: [[f32; C]; NR] = nn::causal_self_attention_rows::<T, H, D, NR, C>(&q, &k, &v);
        x = nn::linear_add::<NR, C, C>(&a, &p.blocks[l].wo, &p.blocks[l].bo, &x);
        #[recompute]
        let h2: [[f32; C]; NR] =
            nn::layer_norm::<NR, C>(&x, &p.blocks[l].ln2_g, &p.blocks[l].ln2_b);
        x = nn::feed_forward_add::<NR, C, F>(
            &h2,
            &p.blocks[l].w1,
            &p.blocks[l].b1,
            &p.blocks[l].w2,
            &p.blocks[l].b2,
            &x,
        );
    }
    #[recompute]
    let hf: [[f32; C]; NR] = nn::layer_norm::<NR, C>(&x, &p.lnf_g, &p.lnf_b);
    nn::linear::<NR, C, V>(&hf, &p.head_w, &p.head_b)
}

/// The mean cross-entropy of predicting `targets` from `tokens`.
#[differentiable(wrt(p))]
pub fn gpt_loss<const NR: usize>(p: &Gpt, tokens: &[usize; NR], targets: &[usize; NR]) -> f32 {
    let logits: [[f32; V]; NR] = gpt_logits::<NR>(p, tokens);
    nn::cross_entropy::<NR, V>(&logits, targets)
}

/// [`gpt_logits`] with the six activations of a block its reverse sweep reads (the first layer
/// norm's output, the queries, keys and values, the attention's output and the feed-forward
/// activation) kept on the tape in bfloat16 (`#[record(bf16)]`): a third less tape for gradients
/// of those values rounded to 8 significant bits (`--tape bf16`; BENCHMARKS.md).
#[differentiable(wrt(p))]
pub fn gpt_logits_bf16<const NR: usize>(p: &Gpt, tokens: &[usize; NR]) -> [[f32; V]; NR] {
    let mut x: [[f32; C]; NR] = nn::token_position_embedding::<V, T, C, NR>(&p.wte, &p.wpe, tokens);
    for l in 0..L {
        #[record(bf16)]
        let h: [[f32; C]; NR] = nn::layer_norm::<NR, C>(&x, &p.blocks[l].ln1_g, &p.blocks[l].ln1_b);
        #[record(bf16)]
        let q: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wq, &p.blocks[l].bq);
        #[record(bf16)]
        let k: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wk, &p.blocks[l].bk);
        #[record(bf16)]
        let v: [[f32; C]; NR] = nn::linear::<NR, C, C>(&h, &p.blocks[l].wv, &p.blocks[l].bv);
        #[record(bf16)]
        let a: [[f32; C]; NR] = nn::causal_self_attention_rows::<T, H, D, NR, C>(&q, &k, &v);
        x = nn::linear_add::<NR, C, C>(&a, &p.blocks[l].wo, &p.blocks[l].bo, &x);
        #[recompute]
        let h2: [[f32; C]; NR] =
            nn::layer_norm::<NR, C>(&x, &p.blocks[l].ln2_g, &p.blocks[l].ln2_b);
        #[record(bf16)]
        let f1r: [[f32; F]; NR] =
            nn::linear_relu::<NR, C, F>(&h2, &p.blocks[l].w1, &p.blocks[l].b1);
        x = nn::linear_add::<NR, F, C>(&f1r, &p.blocks[l].w2, &p.blocks[l].b2, &x);
    }
    #[recompute]
    let hf: [[f32; C]; NR] = nn::layer_norm::<NR, C>(&x, &p.lnf_g, &p.lnf_b);
    nn::linear::<NR, C, V>(&hf, &p.head_w, &p.head_b)
}

/// [`gpt_loss`] over [`gpt_logits_bf16`].
#[differentiable(wrt(p))]
pub fn gpt_loss_bf16<const NR: usize>(p: &Gpt, tokens: &[usize; NR], targets: &[usize; NR]) -> f32 {
    let logits: [[f32; V]; NR] = gpt_logits_bf16::<NR>(p, tokens);
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
///
/// The parameters, the gradient and the optimizer (183 KiB per copy of the parameters) are boxed:
/// the trainer itself is a few pointers, so building and moving it copies no parameters through
/// the stack, whose pages, once touched, would stay in the process's resident memory.
pub struct GptTrainer<const NB: usize, const NR: usize> {
    pub params: Box<Gpt>,
    pub grads: Box<Gpt>,
    pub opt: Box<AdamW<Gpt>>,
    gradient: Gradient<NR>,
}

/// How a step computes the gradient of a batch of `NR` rows.
enum Gradient<const NR: usize> {
    /// On the calling thread, with one tape for the whole batch.
    Single(Box<GptLossTape<NR>>),
    /// Split over the threads of a pool, one tape per shard.
    Sharded(Box<dyn ShardedLoss<NR> + Send>),
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

    /// As [`GptTrainer::new`] with the learning rate `lr`; single-threaded.
    ///
    /// # Errors
    ///
    /// If `lr` is negative or not finite.
    pub fn with_lr(seed: u64, lr: f64) -> Result<Self, ConfigError> {
        let params = Box::new(init_gpt(&mut SmallRng::seed_from_u64(seed)));
        let opt = Box::new(AdamW::new(AdamWConfig {
            lr,
            ..AdamWConfig::default()
        })?);
        Ok(GptTrainer {
            params,
            grads: Box::new(Gpt::zeroed()),
            opt,
            gradient: Gradient::Single(Box::new(Self::EMPTY_TAPE)),
        })
    }

    /// The number of threads a step runs on.
    #[allow(dead_code, reason = "the example prints it; benches/gpt.rs does not")]
    pub fn threads(&self) -> usize {
        match &self.gradient {
            Gradient::Single(_) => 1,
            Gradient::Sharded(sharded) => sharded.shards(),
        }
    }

    /// Zero the gradients, forward, reverse sweep, AdamW update; returns the loss.
    pub fn step(&mut self, x: &[usize; NR], y: &[usize; NR]) -> f32 {
        let loss = match &mut self.gradient {
            Gradient::Single(tape) => {
                self.grads.zero();
                let loss = gpt_loss_forward::<NR>(&self.params, x, y, tape);
                gpt_loss_adjoint::<NR>(&self.params, x, y, tape, 1.0, &mut self.grads);
                loss
            }
            Gradient::Sharded(sharded) => {
                sharded.loss_and_gradient(&self.params, x, y, &mut self.grads)
            }
        };
        self.opt.step(&mut self.params, &self.grads);
        loss
    }
}

impl<const NB: usize, const NR: usize> GptTrainer<NB, NR> {
    /// The trained parameters and optimizer. The tapes, the gradient and any worker threads are
    /// dropped here, so their memory goes back to the system before the end of a run (evaluation,
    /// plot, checkpoints, sampling) allocates its own.
    #[allow(dead_code, reason = "the example uses it; benches/gpt.rs does not")]
    pub fn into_trained(self) -> (Box<Gpt>, Box<AdamW<Gpt>>) {
        (self.params, self.opt)
    }
}

impl Trainer {
    /// Splits each step's batch of `B` sequences into `threads` shards of `B / threads`, one per
    /// thread (the caller's and `threads - 1` workers, each with a 256 MiB stack for the
    /// activations). One thread keeps the single-threaded step.
    ///
    /// # Errors
    ///
    /// If a worker thread cannot be spawned.
    ///
    /// # Panics
    ///
    /// If `threads` is not 1, 2, 4 or 8: each shard's tape is sized at compile time.
    pub fn with_threads(self, threads: usize) -> std::io::Result<Self> {
        Ok(match threads {
            1 => self,
            2 => self.with_sharded_loss(Box::new(Sharded::<R, { R / 2 }>::new()?)),
            4 => self.with_sharded_loss(Box::new(Sharded::<R, { R / 4 }>::new()?)),
            8 => self.with_sharded_loss(Box::new(Sharded::<R, { R / 8 }>::new()?)),
            _ => panic!("{threads} threads: expected 1, 2, 4 or 8"),
        })
    }
}

impl<const NB: usize, const NR: usize> GptTrainer<NB, NR> {
    /// Computes the loss and gradient of every step with `sharded` (over threads, or over MPI
    /// ranks in `ranks.rs`).
    pub fn with_sharded_loss(mut self, sharded: Box<dyn ShardedLoss<NR> + Send>) -> Self {
        self.gradient = Gradient::Sharded(sharded);
        self
    }
}

/// The loss and gradient of a batch of `NR` rows, computed over shards.
pub trait ShardedLoss<const NR: usize> {
    /// The number of shards (threads, or MPI ranks).
    fn shards(&self) -> usize;

    /// Writes the gradient of the mean loss over the batch at `params` into `grads` and returns
    /// that loss.
    fn loss_and_gradient(
        &mut self,
        params: &Gpt,
        x: &[usize; NR],
        y: &[usize; NR],
        grads: &mut Gpt,
    ) -> f32;
}

/// The step of [`gpt_loss_bf16`] on the calling thread, with one tape for the whole batch (a
/// "sharded" loss of one shard, so the trainer needs no other variant).
pub struct Bf16Tape<const NR: usize> {
    tape: Box<GptLossBf16Tape<NR>>,
}

impl<const NR: usize> Bf16Tape<NR> {
    /// As [`GptTrainer::EMPTY_TAPE`].
    const EMPTY_TAPE: GptLossBf16Tape<NR> = GptLossBf16Tape::new();

    pub fn new() -> Self {
        Bf16Tape {
            tape: Box::new(Self::EMPTY_TAPE),
        }
    }
}

impl<const NR: usize> ShardedLoss<NR> for Bf16Tape<NR> {
    fn shards(&self) -> usize {
        1
    }

    fn loss_and_gradient(
        &mut self,
        params: &Gpt,
        x: &[usize; NR],
        y: &[usize; NR],
        grads: &mut Gpt,
    ) -> f32 {
        grads.zero();
        let loss = gpt_loss_bf16_forward::<NR>(params, x, y, &mut self.tape);
        gpt_loss_bf16_adjoint::<NR>(params, x, y, &self.tape, 1.0, grads);
        loss
    }
}

/// What every shard reads: the parameters and the whole batch (copied in at each step).
struct ShardInput<const NR: usize> {
    params: Gpt,
    x: [usize; NR],
    y: [usize; NR],
}

/// One shard of `SR` rows (on a thread, or an MPI rank): its tape, gradient and loss.
pub struct ShardState<const SR: usize> {
    tape: Box<GptLossTape<SR>>,
    pub grads: Gpt,
    pub loss: f32,
}

impl<const SR: usize> ShardState<SR> {
    /// As [`GptTrainer::EMPTY_TAPE`]: the tape is built in its heap allocation.
    const EMPTY_TAPE: GptLossTape<SR> = GptLossTape::new();

    pub fn new() -> Self {
        ShardState {
            tape: Box::new(Self::EMPTY_TAPE),
            grads: Gpt::zeroed(),
            loss: 0.0,
        }
    }

    /// The loss of rows `x`, `y` and its gradient, the adjoint seeded with `seed` (the shard's
    /// share of a mean over the whole batch).
    pub fn compute(&mut self, params: &Gpt, x: &[usize; SR], y: &[usize; SR], seed: f32) {
        self.grads.zero();
        self.loss = gpt_loss_forward::<SR>(params, x, y, &mut self.tape);
        gpt_loss_adjoint::<SR>(params, x, y, &self.tape, seed, &mut self.grads);
    }
}

/// A batch of `NR` rows in `NR / SR` shards of `SR` rows on a [`DataParallel`] pool.
///
/// The loss is a mean over rows, so each shard computes the mean over its own rows and seeds its
/// adjoint with `SR / NR` (one over the shard count): the sum of the shard gradients, in shard
/// order, is the gradient of the mean over the batch, and the mean of the shard losses is its loss.
struct Sharded<const NR: usize, const SR: usize> {
    pool: DataParallel<ShardInput<NR>, ShardState<SR>>,
}

impl<const NR: usize, const SR: usize> Sharded<NR, SR> {
    fn new() -> std::io::Result<Self> {
        const { assert!(SR > 0 && NR.is_multiple_of(SR), "shards of equal size") };
        let shards = NR / SR;
        let input = ShardInput {
            params: Gpt::zeroed(),
            x: [0; NR],
            y: [0; NR],
        };
        let seed = 1.0 / shards as f32;
        let pool = DataParallel::builder(shards).stack_size(256 << 20).build(
            input,
            |_| ShardState::new(),
            move |k, input: &ShardInput<NR>, shard: &mut ShardState<SR>| {
                let rows = k * SR..(k + 1) * SR;
                let x: &[usize; SR] = input.x[rows.clone()].try_into().expect("SR rows");
                let y: &[usize; SR] = input.y[rows].try_into().expect("SR rows");
                shard.compute(&input.params, x, y, seed);
            },
        )?;
        Ok(Sharded { pool })
    }
}

impl<const NR: usize, const SR: usize> ShardedLoss<NR> for Sharded<NR, SR> {
    fn shards(&self) -> usize {
        self.pool.shards()
    }

    fn loss_and_gradient(
        &mut self,
        params: &Gpt,
        x: &[usize; NR],
        y: &[usize; NR],
        grads: &mut Gpt,
    ) -> f32 {
        {
            let mut input = self.pool.input_mut();
            input.params.copy_from(params);
            input.x = *x;
            input.y = *y;
        }
        self.pool.step();
        self.pool.sum_into(grads, |shard| &shard.grads);
        let mut loss = 0.0;
        for k in 0..self.pool.shards() {
            loss += self.pool.state(k).loss;
        }
        loss / self.pool.shards() as f32
    }
}
