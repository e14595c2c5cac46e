// The user's `#[inline(..)]` on a function carries to its forward-mode companions, `f_jvp`,
// `f_jvp_vec` and `f_jvp_call` (which otherwise get `#[inline]`): a small stage marked
// `#[inline(always)]` is inlined into every caller's sweep, as the primal is (GradBench `ht`'s
// `skin` and `place`, called from two paths of its Jacobian).
#[differentiable(jvp, wrt(r, v))]
#[inline(always)]
fn rotate(r: &[f64; 4], v: &[f64; 2]) -> [f64; 2] {
    [r[0] * v[0] + r[1] * v[1], r[2] * v[0] + r[3] * v[1]]
}
