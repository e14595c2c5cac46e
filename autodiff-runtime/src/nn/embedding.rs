//! Embedding lookup: row `ids[r]` of a table.
//!
//! Shapes: `table`, `d_table` `[V][C]`; `ids` `[R]` (each `< V`); output and `d_out` `[R][C]`.

tape! {
    /// What [`embedding_adjoint`] reads besides the arguments: nothing.
    pub struct EmbeddingTape<const V: usize, const C: usize, const R: usize> {}
}

/// Checks a token id, naming its position and the table size when it is out of range.
#[track_caller]
fn id<const V: usize>(r: usize, id: usize) -> usize {
    assert!(
        id < V,
        "embedding: id {id} at position {r} is out of range for a table of {V} rows"
    );
    id
}

/// The rows of `table` named by `ids`: `y[r] = table[ids[r]]`.
///
/// Shapes: `table` `[V][C]`, `ids` `[R]` -> `[R][C]`.
///
/// # Panics
///
/// If an id is not less than `V`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::embedding;
///
/// let table = [[0.0f32, 0.5], [1.0, 1.5], [2.0, 2.5]];
/// assert_eq!(embedding(&table, &[2, 0, 2]), [[2.0, 2.5], [0.0, 0.5], [2.0, 2.5]]);
/// ```
#[track_caller]
#[must_use]
pub fn embedding<const V: usize, const C: usize, const R: usize>(
    table: &[[f32; C]; V],
    ids: &[usize; R],
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    lookup_into(table, ids, &mut y);
    y
}

#[track_caller]
fn lookup_into<const V: usize, const C: usize, const R: usize>(
    table: &[[f32; C]; V],
    ids: &[usize; R],
    out: &mut [[f32; C]; R],
) {
    for (r, (y, &i)) in out.iter_mut().zip(ids).enumerate() {
        *y = table[id::<V>(r, i)];
    }
}

/// [`embedding`], recording its (empty) tape.
///
/// # Panics
///
/// If an id is not less than `V`.
#[track_caller]
pub fn embedding_forward<const V: usize, const C: usize, const R: usize>(
    table: &[[f32; C]; V],
    ids: &[usize; R],
    _tape: &mut EmbeddingTape<V, C, R>,
) -> [[f32; C]; R] {
    embedding(table, ids)
}

/// [`embedding_forward`] into `out`, every element of which it overwrites: a caller's forward
/// sweep writes a recorded output straight into its tape slot, with no copy.
///
/// # Panics
///
/// As [`embedding`], if an id is not below `V`.
#[track_caller]
pub fn embedding_forward_into<const V: usize, const C: usize, const R: usize>(
    table: &[[f32; C]; V],
    ids: &[usize; R],
    _tape: &mut EmbeddingTape<V, C, R>,
    out: &mut [[f32; C]; R],
) {
    lookup_into(table, ids, out);
}

/// Adds `d_out[r]` into row `ids[r]` of `d_table`, for every `r` (a repeated id collects the sum).
///
/// Shapes: `table`, `d_table` `[V][C]`; `ids` `[R]`; `d_out` `[R][C]`.
///
/// # Panics
///
/// If an id is not less than `V`.
#[track_caller]
pub fn embedding_adjoint<const V: usize, const C: usize, const R: usize>(
    _table: &[[f32; C]; V],
    ids: &[usize; R],
    _tape: &EmbeddingTape<V, C, R>,
    d_out: &[[f32; C]; R],
    d_table: &mut [[f32; C]; V],
) {
    for (r, (d, &i)) in d_out.iter().zip(ids).enumerate() {
        for (d_t, d) in d_table[id::<V>(r, i)].iter_mut().zip(d) {
            *d_t += d;
        }
    }
}

tape! {
    /// What [`token_position_embedding_adjoint`] reads besides the arguments: nothing.
    pub struct TokenPositionEmbeddingTape<
        const V: usize, const T: usize, const C: usize, const R: usize
    > {}
}

/// A transformer's input: the embedding of each token plus the embedding of its position in its
/// sequence, `y[r] = tokens[ids[r]] + positions[r % T]`, for `R / T` sequences of `T` tokens.
///
/// Shapes: `tokens` `[V][C]`, `positions` `[T][C]`, `ids` `[R]` -> `[R][C]`.
///
/// # Panics
///
/// If an id is not less than `V`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::token_position_embedding;
///
/// let tokens = [[1.0f32], [2.0]];
/// let positions = [[10.0f32], [20.0]]; // T = 2
/// let y = token_position_embedding(&tokens, &positions, &[1, 1, 0, 1]);
/// assert_eq!(y, [[12.0], [22.0], [11.0], [22.0]]);
/// ```
#[track_caller]
#[must_use]
pub fn token_position_embedding<const V: usize, const T: usize, const C: usize, const R: usize>(
    tokens: &[[f32; C]; V],
    positions: &[[f32; C]; T],
    ids: &[usize; R],
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    sum_into(tokens, positions, ids, &mut y);
    y
}

#[track_caller]
fn sum_into<const V: usize, const T: usize, const C: usize, const R: usize>(
    tokens: &[[f32; C]; V],
    positions: &[[f32; C]; T],
    ids: &[usize; R],
    out: &mut [[f32; C]; R],
) {
    for (r, (y, &i)) in out.iter_mut().zip(ids).enumerate() {
        for ((y, t), p) in y
            .iter_mut()
            .zip(&tokens[id::<V>(r, i)])
            .zip(&positions[r % T])
        {
            *y = t + p;
        }
    }
}

/// [`token_position_embedding`], recording its (empty) tape.
///
/// # Panics
///
/// If an id is not less than `V`.
#[track_caller]
pub fn token_position_embedding_forward<
    const V: usize,
    const T: usize,
    const C: usize,
    const R: usize,
>(
    tokens: &[[f32; C]; V],
    positions: &[[f32; C]; T],
    ids: &[usize; R],
    _tape: &mut TokenPositionEmbeddingTape<V, T, C, R>,
) -> [[f32; C]; R] {
    token_position_embedding(tokens, positions, ids)
}

/// [`token_position_embedding_forward`] into `out`, every element of which it overwrites: a
/// caller's forward sweep writes a recorded output straight into its tape slot, with no copy.
///
/// # Panics
///
/// As [`token_position_embedding`], if an id is not below `V`.
#[track_caller]
pub fn token_position_embedding_forward_into<
    const V: usize,
    const T: usize,
    const C: usize,
    const R: usize,
>(
    tokens: &[[f32; C]; V],
    positions: &[[f32; C]; T],
    ids: &[usize; R],
    _tape: &mut TokenPositionEmbeddingTape<V, T, C, R>,
    out: &mut [[f32; C]; R],
) {
    sum_into(tokens, positions, ids, out);
}

/// Adds `d_out[r]` into row `ids[r]` of `d_tokens` and row `r % T` of `d_positions`.
///
/// Shapes: `tokens`, `d_tokens` `[V][C]`; `positions`, `d_positions` `[T][C]`; `ids` `[R]`;
/// `d_out` `[R][C]`.
///
/// # Panics
///
/// If an id is not less than `V`.
#[track_caller]
pub fn token_position_embedding_adjoint<
    const V: usize,
    const T: usize,
    const C: usize,
    const R: usize,
>(
    _tokens: &[[f32; C]; V],
    _positions: &[[f32; C]; T],
    ids: &[usize; R],
    _tape: &TokenPositionEmbeddingTape<V, T, C, R>,
    d_out: &[[f32; C]; R],
    d_tokens: &mut [[f32; C]; V],
    d_positions: &mut [[f32; C]; T],
) {
    for (r, (d, &i)) in d_out.iter().zip(ids).enumerate() {
        for (d_t, d) in d_tokens[id::<V>(r, i)].iter_mut().zip(d) {
            *d_t += d;
        }
        for (d_p, d) in d_positions[r % T].iter_mut().zip(d) {
            *d_p += d;
        }
    }
}
