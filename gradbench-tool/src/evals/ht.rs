//! `ht`: hand tracking (ADBench's problem), the residuals between measured points and a
//! skinned hand mesh posed by 26 parameters, and their dense Jacobian. Written as the eval's
//! C++ reference (`cpp/gradbench/evals/ht.hpp`) computes it, in `#[differentiable(jvp)]`
//! stages: the bones' transforms from the pose ([`bone_transforms`]: Euler angles per joint,
//! chained from parent to child, each product of rigid transforms on their top three rows)
//! and the global rotation ([`global_rotation`]), each computed once; a vertex skinned ([`skin`]: the bones' transforms blended by the vertex's weights,
//! mirrored if the model is) and posed ([`place`]: rotated and translated); and one
//! correspondence's residual ([`residual`], [`simple_residual`]).
//!
//! The Jacobian is forward mode, many directions per sweep (`f_jvp_vec::<W>`, `W` lanes): the
//! 26 pose parameters, and in the complicated variant two more before them, one per barycentric
//! coordinate of every correspondence at once (each residual depends on its own two only: the
//! two columns ADBench's layout stores). The finger columns are compressed (a coloring of the
//! rows' patterns) and the six global ones have a lane each; each stage's sweep carries the
//! lanes its inputs' columns reach (the bones' and the skinning's the fingers' only), and its
//! tangents go into the next stage's sweep, as JAX composes `jvp`s; nothing is differentiated
//! by hand. The Jacobian skins only the vertices the correspondences use, once each; the
//! objective skins every vertex, as the reference does. A vertex blends the bones whose weight
//! is not zero (ADBench's files list them per vertex).

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

/// The most bones a model may have (ADBench's hands have 22): the capacity of the stages'
/// fixed-size arrays. A larger model is a typed error.
pub const MAX_BONES: usize = 32;

/// Each bone's transform from its rest pose to pose `theta` (the top three rows of the 4 x 4
/// matrix, row-major): `absolute(b) * inverse_base_absolute(b)`, where `absolute(b) =
/// absolute(parent(b)) * base_relative(b) * euler(b)` and the Euler angles of the finger joints
/// come from `theta[6..26]` (four per finger: two for its first joint, one for each other).
/// The transforms are rigid (their last row is `(0, 0, 0, 1)`, which [`Problem::read`]
/// checks), so each product is of the top three rows only: the reference's 4 x 4 products
/// with the products by that row's zeros and one left out, the same numbers.
#[differentiable(jvp, wrt(theta))]
pub fn bone_transforms(
    theta: &[f64; 26],
    nb: usize,
    parents: &[i64],
    base_rel: &[[f64; 16]],
    inv_abs: &[[f64; 16]],
) -> [[f64; 12]; 32] {
    // ADBench's pose parameters per bone: (x, z, y) angles, zero for the wrist, the forearm
    // and the fingertips.
    let mut pose = [[0.0; 3]; 32];
    for f in 0..5 {
        let b = 2 + 4 * f;
        let t = 6 + 4 * f;
        pose[b][0] = theta[t];
        pose[b][1] = theta[t + 1];
        pose[b + 1][0] = theta[t + 2];
        pose[b + 2][0] = theta[t + 3];
    }
    let mut abs = [[0.0; 12]; 32];
    let mut out = [[0.0; 12]; 32];
    for b in 0..nb {
        // R = Rz * Ry * Rx of angles (tx, ty, tz) = (pose[0], pose[2], pose[1]).
        let (sx, cx) = (pose[b][0].sin(), pose[b][0].cos());
        let (sy, cy) = (pose[b][2].sin(), pose[b][2].cos());
        let (sz, cz) = (pose[b][1].sin(), pose[b][1].cos());
        let r = [
            [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
            [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
            [-sy, cy * sx, cy * cx],
        ];
        // The relative transform: base_relative * [R 0; 0 1].
        let mut rel = [0.0; 12];
        for i in 0..3 {
            for j in 0..3 {
                rel[4 * i + j] = base_rel[b][4 * i] * r[0][j]
                    + base_rel[b][4 * i + 1] * r[1][j]
                    + base_rel[b][4 * i + 2] * r[2][j];
            }
            rel[4 * i + 3] = base_rel[b][4 * i + 3];
        }
        let p = parents[b];
        if p < 0 {
            abs[b] = rel;
        } else {
            let q = p as usize;
            for i in 0..3 {
                for j in 0..3 {
                    abs[b][4 * i + j] = abs[q][4 * i] * rel[j]
                        + abs[q][4 * i + 1] * rel[4 + j]
                        + abs[q][4 * i + 2] * rel[8 + j];
                }
                abs[b][4 * i + 3] = abs[q][4 * i] * rel[3]
                    + abs[q][4 * i + 1] * rel[7]
                    + abs[q][4 * i + 2] * rel[11]
                    + abs[q][4 * i + 3];
            }
        }
        for i in 0..3 {
            for j in 0..3 {
                out[b][4 * i + j] = abs[b][4 * i] * inv_abs[b][j]
                    + abs[b][4 * i + 1] * inv_abs[b][4 + j]
                    + abs[b][4 * i + 2] * inv_abs[b][8 + j];
            }
            out[b][4 * i + 3] = abs[b][4 * i] * inv_abs[b][3]
                + abs[b][4 * i + 1] * inv_abs[b][7]
                + abs[b][4 * i + 2] * inv_abs[b][11]
                + abs[b][4 * i + 3];
        }
    }
    out
}

/// The global rotation, the angle-axis `theta[0..3]` as a matrix (row-major): the identity below
/// an angle of 0.0001, as the reference has it.
#[differentiable(jvp, wrt(theta))]
pub fn global_rotation(theta: &[f64; 26]) -> [f64; 9] {
    let norm = (theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2]).sqrt();
    let mut r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    if norm >= 0.0001 {
        let (x, y, z) = (theta[0] / norm, theta[1] / norm, theta[2] / norm);
        let (s, c) = (norm.sin(), norm.cos());
        r = [
            x * x + (1.0 - x * x) * c,
            x * y * (1.0 - c) - z * s,
            x * z * (1.0 - c) + y * s,
            x * y * (1.0 - c) + z * s,
            y * y + (1.0 - y * y) * c,
            y * z * (1.0 - c) - x * s,
            x * z * (1.0 - c) - y * s,
            z * y * (1.0 - c) + x * s,
            z * z + (1.0 - z * z) * c,
        ];
    }
    r
}

/// A vertex of the mesh skinned in the model's frame: its rest position `p` (homogeneous) moved
/// by the transforms of the bones it is bound to (`bones`, with `weights`), mirrored in x if the
/// model is. [`place`] then poses it. `#[inline(always)]`, which its `skin_jvp_vec` keeps: the
/// Jacobian calls it from two paths, and out of line its results were copied.
#[differentiable(jvp, wrt(t))]
#[inline(always)]
pub fn skin(
    t: &[[f64; 12]; 32],
    p: &[f64; 4],
    bones: &[usize],
    weights: &[f64],
    mirrored: bool,
) -> [f64; 3] {
    let mut v = [0.0; 3];
    for k in 0..bones.len() {
        let b = bones[k];
        let w = weights[k];
        for i in 0..3 {
            v[i] += w
                * (t[b][4 * i] * p[0]
                    + t[b][4 * i + 1] * p[1]
                    + t[b][4 * i + 2] * p[2]
                    + t[b][4 * i + 3] * p[3]);
        }
    }
    if mirrored {
        v[0] = -v[0];
    }
    v
}

/// A skinned vertex `v` ([`skin`]) posed: rotated by `r` ([`global_rotation`]) and translated by
/// `theta[3..6]`. `#[inline(always)]`, as [`skin`].
#[differentiable(jvp, wrt(r, theta, v))]
#[inline(always)]
pub fn place(r: &[f64; 9], theta: &[f64; 26], v: &[f64; 3]) -> [f64; 3] {
    [
        r[0] * v[0] + r[1] * v[1] + r[2] * v[2] + theta[3],
        r[3] * v[0] + r[4] * v[1] + r[5] * v[2] + theta[4],
        r[6] * v[0] + r[7] * v[1] + r[8] * v[2] + theta[5],
    ]
}

/// The complicated variant's residual: the point minus the point of the triangle `(a, b, c)` at
/// barycentric coordinates `(u[0], u[1], 1 - u[0] - u[1])`.
#[differentiable(jvp, wrt(a, b, c, u))]
pub fn residual(
    a: &[f64; 3],
    b: &[f64; 3],
    c: &[f64; 3],
    u: &[f64; 2],
    point: &[f64; 3],
) -> [f64; 3] {
    let w = 1.0 - u[0] - u[1];
    [
        point[0] - (u[0] * a[0] + u[1] * b[0] + w * c[0]),
        point[1] - (u[0] * a[1] + u[1] * b[1] + w * c[1]),
        point[2] - (u[0] * a[2] + u[1] * b[2] + w * c[2]),
    ]
}

/// The simple variant's residual: the point minus its vertex.
#[differentiable(jvp, wrt(v))]
pub fn simple_residual(v: &[f64; 3], point: &[f64; 3]) -> [f64; 3] {
    [point[0] - v[0], point[1] - v[1], point[2] - v[2]]
}

/// A hand model: its bones (parent before child, `-1` for a root), their rest transforms, and
/// its mesh (rest positions, homogeneous; each vertex's bones and weights, the non-zero ones;
/// triangles).
#[derive(Debug, Clone)]
pub struct Model {
    pub parents: Vec<i64>,
    pub base_rel: Vec<[f64; 16]>,
    pub inv_abs: Vec<[f64; 16]>,
    pub positions: Vec<[f64; 4]>,
    pub bones: Vec<Vec<usize>>,
    pub weights: Vec<Vec<f64>>,
    pub triangles: Vec<[usize; 3]>,
    pub mirrored: bool,
    /// The pose columns each bone's transform depends on (bits of a `u32`): the Euler angles
    /// of the bone and of its ancestors.
    pub chain: Vec<u32>,
    /// The pose columns each vertex depends on: the global rotation's and translation's six,
    /// and its bones' chains.
    pub columns: Vec<u32>,
}

/// One input: the model, the pose, the correspondences (a vertex each in the simple variant,
/// a triangle each with barycentric coordinates `us` in the complicated one) and the points.
#[derive(Debug, Clone)]
pub struct Problem {
    pub model: Model,
    pub theta: [f64; 26],
    pub us: Vec<[f64; 2]>,
    pub correspondences: Vec<usize>,
    pub points: Vec<[f64; 3]>,
    /// The finger columns' lanes in [`Problem::jacobian_into`]'s sweeps, colored over the rows
    /// of the variant (vertices, or triangles).
    pub compression: Compression,
}

impl Problem {
    pub fn complicated(&self) -> bool {
        !self.us.is_empty()
    }

    /// The vertices each correspondence reads: one, or a triangle's three.
    fn vertices_of(&self, i: usize) -> [usize; 3] {
        let c = self.correspondences[i];
        if self.complicated() {
            self.model.triangles[c]
        } else {
            [c; 3]
        }
    }

    /// The bones' transforms at the pose.
    fn transforms(&self) -> [[f64; 12]; 32] {
        let m = &self.model;
        bone_transforms(
            &self.theta,
            m.parents.len(),
            &m.parents,
            &m.base_rel,
            &m.inv_abs,
        )
    }

    /// The residuals (`3n`) into `err`, every vertex skinned first as the reference does;
    /// `err`'s capacity is reused (as GradBench's C++ tools reuse their output across runs).
    pub fn objective_into(&self, err: &mut Vec<f64>) {
        let m = &self.model;
        let (t, r) = (self.transforms(), global_rotation(&self.theta));
        let posed: Vec<[f64; 3]> = (0..m.positions.len())
            .map(|v| {
                let u = skin(&t, &m.positions[v], &m.bones[v], &m.weights[v], m.mirrored);
                place(&r, &self.theta, &u)
            })
            .collect();
        err.clear();
        for i in 0..self.points.len() {
            let [a, b, c] = self.vertices_of(i);
            let e = if self.complicated() {
                residual(
                    &posed[a],
                    &posed[b],
                    &posed[c],
                    &self.us[i],
                    &self.points[i],
                )
            } else {
                simple_residual(&posed[a], &self.points[i])
            };
            err.extend_from_slice(&e);
        }
    }

    /// The Jacobian of the residuals, row by row (`3n` rows of `C` columns: in the complicated
    /// variant each residual's two barycentric coordinates first, then the 26 pose
    /// parameters, as ADBench lays it out), into `rows`, overwritten in place (sized on the
    /// first evaluation, as GradBench's C++ tools size their output once).
    ///
    /// Forward sweeps through the stages, each in the lanes its inputs' columns need: the
    /// bones and the skinned vertices in `F` lanes, the finger columns compressed by
    /// [`Problem::compression`] (a row's pattern has at most one column of each color, and so
    /// has the chain of every bone a row reads); the global rotation, the posed vertices and
    /// the residuals in `P` lanes, the columns before the fingers' (in the complicated
    /// variant the two barycentric coordinates', zero until the residual) and then the
    /// fingers' `F`. Each residual's tangents then go from their lanes to their columns (the
    /// pattern's finger columns from their colors' lanes, the others zero). Each vertex the
    /// correspondences read is skinned and posed once: while the simple variant's rows fit in
    /// a core's L2 cache (at most 1 MiB), its rows are written vertex by vertex, those of
    /// each point bound to the vertex just posed, in no order; past that, each vertex's
    /// residual's tangents are made once and the rows written from them in order (with 32
    /// points a vertex or more, copied from a block of the vertex's rows, made once). The
    /// complicated variant keeps the posed vertices (in the model's order) and writes the rows
    /// in order.
    /// `P` must be `C - 20 + F`, and `F` hold the colors.
    pub fn jacobian_into<const F: usize, const P: usize, const C: usize>(
        &self,
        rows: &mut Vec<[f64; C]>,
    ) {
        let (m, k) = (&self.model, &self.compression);
        // The barycentric coordinates' columns (the complicated variant's) come first.
        assert_eq!(
            C,
            if self.complicated() { 28 } else { 26 },
            "ht: the variant's columns"
        );
        assert!(
            P == C - 26 + GLOBAL + F
                && k.lanes <= F
                && k.lane[GLOBAL..].iter().all(|&l| usize::from(l) < k.lanes),
            "ht: {F} finger lanes for {} colors, {P} lanes in all",
            k.lanes
        );
        let sweeps = Sweeps::<F, P>::new(self);
        rows.resize(3 * self.points.len(), [0.0; C]);
        if !self.complicated() && size_of_val(rows.as_slice()) <= by_vertex_bound() {
            return self.by_vertex(&sweeps, rows);
        }
        if !self.complicated() {
            let blocks = self.points.len() >= BY_BLOCKS * m.positions.len();
            return self.in_order(&sweeps, rows, blocks);
        }
        // The complicated variant: each vertex a triangle reads skinned and posed once, in the
        // model's order.
        let mut slot = vec![usize::MAX; m.positions.len()];
        let mut used = 0;
        for i in 0..self.points.len() {
            for v in self.vertices_of(i) {
                if slot[v] == usize::MAX {
                    (slot[v], used) = (0, used + 1);
                }
            }
        }
        let mut posed = Vec::with_capacity(used);
        for (v, slot) in slot.iter_mut().enumerate() {
            if *slot == 0 {
                *slot = posed.len();
                posed.push(sweeps.posed(self, v));
            }
        }
        let mut t_u = [[0.0; P]; 2];
        (t_u[0][0], t_u[1][1]) = (1.0, 1.0);
        for (i, out) in rows.chunks_exact_mut(3).enumerate() {
            let vs = self.vertices_of(i);
            let [a, b, c] = vs.map(|v| &posed[slot[v]]);
            let (u, point) = (&self.us[i], &self.points[i]);
            let d = residual_jvp_vec::<P>(&a.0, &b.0, &c.0, u, point, &a.1, &b.1, &c.1, &t_u).1;
            let pattern = vs.iter().fold(0, |acc, &v| acc | m.columns[v]);
            self.to_columns(&d, pattern, out);
        }
    }

    /// The simple variant's rows vertex by vertex: each vertex skinned and posed once, then
    /// the residuals of the points bound to it (a counting sort of the correspondences by
    /// vertex), their rows written where they go, in no order. Faster than the rows in order
    /// (no posed vertices kept) while the rows stay in cache: [`BY_VERTEX`].
    fn by_vertex<const F: usize, const P: usize, const C: usize>(
        &self,
        sweeps: &Sweeps<F, P>,
        rows: &mut [[f64; C]],
    ) {
        let (corr, nv) = (&self.correspondences, self.model.positions.len());
        let mut start = vec![0; nv + 1];
        for &v in corr {
            start[v + 1] += 1;
        }
        for v in 0..nv {
            start[v + 1] += start[v];
        }
        let (mut next, mut order) = (start.clone(), vec![0; corr.len()]);
        for (i, &v) in corr.iter().enumerate() {
            order[next[v]] = i;
            next[v] += 1;
        }
        for (v, users) in start.windows(2).enumerate() {
            if users[0] == users[1] {
                continue;
            }
            let (x, d) = sweeps.posed(self, v);
            for &i in &order[users[0]..users[1]] {
                let d = simple_residual_jvp_vec::<P>(&x, &self.points[i], &d).1;
                self.to_columns(&d, self.model.columns[v], &mut rows[3 * i..3 * i + 3]);
            }
        }
    }

    /// The simple variant's rows in order. A vertex's residual has the same tangents at every
    /// point bound to it (the residual is the point minus the vertex): each vertex's are made
    /// once, at its first point, in the lanes. Each point's rows are then written from its
    /// vertex's tangents ([`Problem::to_columns`]) or, with `blocks` (many points a vertex:
    /// [`BY_BLOCKS`]), copied from a block of its vertex's three rows, made once.
    fn in_order<const F: usize, const P: usize, const C: usize>(
        &self,
        sweeps: &Sweeps<F, P>,
        rows: &mut [[f64; C]],
        blocks: bool,
    ) {
        let (corr, columns) = (&self.correspondences, &self.model.columns);
        // Vertex `v`'s tangents: `tangents[at[v]]`.
        let mut at = vec![usize::MAX; columns.len()];
        let mut tangents: Vec<[[f64; P]; 3]> = Vec::with_capacity(columns.len());
        for (i, &v) in corr.iter().enumerate() {
            if at[v] == usize::MAX {
                at[v] = tangents.len();
                let (x, d) = sweeps.posed(self, v);
                tangents.push(simple_residual_jvp_vec::<P>(&x, &self.points[i], &d).1);
            }
        }
        let rows = rows.as_chunks_mut::<3>().0;
        if !blocks {
            for (out, &v) in rows.iter_mut().zip(corr) {
                self.to_columns(&tangents[at[v]], columns[v], out);
            }
            return;
        }
        let mut made = vec![[[0.0; C]; 3]; tangents.len()];
        for (v, &a) in at.iter().enumerate().filter(|(_, a)| **a != usize::MAX) {
            self.to_columns(&tangents[a], columns[v], &mut made[a]);
        }
        for (out, &v) in rows.iter_mut().zip(corr) {
            *out = made[at[v]];
        }
    }

    /// Three rows of tangents in the lanes of [`Problem::jacobian_into`] written to their
    /// columns in `out` (after the first `C - 26`, as the lanes): the lanes before the
    /// fingers' as they are, each finger column of `pattern` from its color's lane, the other
    /// finger columns zero.
    fn to_columns<const P: usize, const C: usize>(
        &self,
        d: &[[f64; P]; 3],
        pattern: u32,
        out: &mut [[f64; C]],
    ) {
        let lead = C - 26 + GLOBAL;
        for (out, d) in out.iter_mut().zip(d) {
            out[..lead].copy_from_slice(&d[..lead]);
            out[lead..].fill(0.0);
        }
        let mut fingers = pattern >> GLOBAL;
        while fingers != 0 {
            let c = GLOBAL + fingers.trailing_zeros() as usize;
            let lane = lead + usize::from(self.compression.lane[c]);
            for (out, d) in out.iter_mut().zip(d) {
                out[C - 26 + c] = d[lane];
            }
            fingers &= fingers - 1;
        }
    }
}

/// The stages a vertex reads, swept once per Jacobian: the bones' transforms with their
/// tangents in the `F` finger lanes, and the global rotation with its tangents in the `P`
/// lanes of [`Problem::jacobian_into`], with the pose's seed in those lanes.
struct Sweeps<const F: usize, const P: usize> {
    t: [[f64; 12]; 32],
    d_t: [[[f64; F]; 12]; 32],
    r: [f64; 9],
    d_r: [[f64; P]; 9],
    t_theta: [[f64; P]; 26],
}

impl<const F: usize, const P: usize> Sweeps<F, P> {
    fn new(pb: &Problem) -> Self {
        let (m, k) = (&pb.model, &pb.compression);
        // The bones read the finger columns only (their Euler angles), each in its lane.
        let mut t_fingers = [[0.0; F]; 26];
        for (c, t) in t_fingers.iter_mut().enumerate().skip(GLOBAL) {
            t[usize::from(k.lane[c])] = 1.0;
        }
        let (t, d_t) = bone_transforms_jvp_vec::<F>(
            &pb.theta,
            m.parents.len(),
            &m.parents,
            &m.base_rel,
            &m.inv_abs,
            &t_fingers,
        );
        // The global rotation's and translation's columns, a lane each, before the fingers'.
        let mut t_theta = [[0.0; P]; 26];
        for (c, t) in t_theta.iter_mut().enumerate().take(GLOBAL) {
            t[P - F - GLOBAL + c] = 1.0;
        }
        let (r, d_r) = global_rotation_jvp_vec::<P>(&pb.theta, &t_theta);
        Sweeps {
            t,
            d_t,
            r,
            d_r,
            t_theta,
        }
    }

    /// Vertex `v` skinned and posed, and its tangents in the `P` lanes.
    #[inline(always)]
    fn posed(&self, pb: &Problem, v: usize) -> ([f64; 3], [[f64; P]; 3]) {
        let m = &pb.model;
        let (p, (bones, weights)) = (&m.positions[v], (&m.bones[v], &m.weights[v]));
        let (u, d_u) = skin_jvp_vec::<F>(&self.t, p, bones, weights, m.mirrored, &self.d_t);
        let mut t_u = [[0.0; P]; 3];
        for (t_u, d_u) in t_u.iter_mut().zip(&d_u) {
            t_u[P - F..].copy_from_slice(d_u);
        }
        place_jvp_vec::<P>(&self.r, &pb.theta, &u, &self.d_r, &self.t_theta, &t_u)
    }
}

/// The most bytes of rows [`Problem::by_vertex`] writes in no order: the L2 cache of a core
/// ([`by_vertex_bound`]), at most 1 MiB, half the L2 of a core of the Xeons we measure on
/// (2 MiB; their rows of 2 MB were faster in order), all of a Zen 4's. Written in no order,
/// rows that do not fit wait on the next level at each store: on a Zen 3 (L2 512 KiB), hand6's
/// 1 MB of rows took 0.069-0.075 ms that way against 0.064-0.068 in order.
const BY_VERTEX: usize = 1 << 20;

/// [`BY_VERTEX`], or the L2 cache of a core where smaller (CPU 0's, read once, from Linux:
/// [`crate::l2_cache_bytes`]).
fn by_vertex_bound() -> usize {
    static BOUND: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BOUND.get_or_init(|| crate::l2_cache_bytes().map_or(BY_VERTEX, |l2| l2.min(BY_VERTEX)))
}

/// The fewest points per vertex of the model (on average) for which [`Problem::in_order`]
/// copies each point's rows from a block of its vertex's rows.
const BY_BLOCKS: usize = 32;

/// The pose columns every vertex depends on, first in the pose: the global rotation's three
/// and the translation's three. The rest are the fingers'.
const GLOBAL: usize = 6;

/// A Jacobian's rows, kept from one evaluation to the next: the simple variant's 26 columns
/// or the complicated variant's 28.
#[derive(Debug, Default, Clone)]
pub struct Rows {
    pub simple: Vec<[f64; 26]>,
    pub complicated: Vec<[f64; 28]>,
}

impl Problem {
    /// The Jacobian into `rows` (the variant's), in as few finger lanes as its compression
    /// needs: 4 (ADBench's hands, simple), 6 (complicated), or a lane per finger column.
    pub fn jacobian(&self, rows: &mut Rows) {
        match (self.complicated(), self.compression.lanes) {
            (false, ..=4) => self.jacobian_into::<4, 10, 26>(&mut rows.simple),
            (false, _) => self.jacobian_into::<20, 26, 26>(&mut rows.simple),
            (true, ..=6) => self.jacobian_into::<6, 14, 28>(&mut rows.complicated),
            (true, _) => self.jacobian_into::<20, 28, 28>(&mut rows.complicated),
        }
    }
}

/// The pose columns (bits 0 to 25 of a `u32`) bone `b`'s own Euler angles read, as
/// [`bone_transforms`] lays them out: a finger's first joint two, each other joint one, its
/// tip none.
fn own_columns(b: usize) -> u32 {
    match b.checked_sub(2) {
        Some(k) if k < 20 => {
            let (f, j) = (k / 4, k % 4);
            match j {
                0 => 0b11 << (6 + 4 * f),
                1 => 1 << (8 + 4 * f),
                2 => 1 << (9 + 4 * f),
                _ => 0,
            }
        }
        _ => 0,
    }
}

/// A compression of the 20 finger columns (those after the six global ones) for a variant's
/// rows: two columns may share a lane when no row depends on both (a distance-2 coloring of the
/// rows' pattern, [`Coloring`]). A property of the model and the variant, computed when the
/// input is read.
///
/// [`Coloring`]: stackgrad::runtime::sparse::Coloring
#[derive(Debug, Clone)]
pub struct Compression {
    /// Each finger column's lane (the global columns' entries are not read).
    pub lane: [u8; 26],
    /// The lanes used.
    pub lanes: usize,
}

impl Compression {
    /// The compression of a model's variant, over its rows: the vertices, or the triangles in
    /// the complicated variant.
    pub fn of(model: &Model, complicated: bool) -> Result<Compression, String> {
        if complicated {
            Compression::new(
                (model.triangles.iter())
                    .map(|t| t.iter().fold(0, |acc, &v| acc | model.columns[v])),
            )
        } else {
            Compression::new(model.columns.iter().copied())
        }
    }

    /// No compression: a lane per finger column.
    pub fn identity() -> Compression {
        Compression {
            lane: core::array::from_fn(|c| c.saturating_sub(GLOBAL) as u8),
            lanes: 26 - GLOBAL,
        }
    }

    /// The coloring of these rows' patterns (bits of the 26 columns) over the finger columns.
    fn new(rows: impl IntoIterator<Item = u32>) -> Result<Compression, String> {
        use stackgrad::runtime::sparse::{Coloring, Pattern};
        let mut pattern = Pattern::new(26 - GLOBAL);
        for row in rows {
            let fingers = (GLOBAL..26).filter(|c| row >> c & 1 == 1);
            (pattern.push_row(fingers.map(|c| c - GLOBAL))).map_err(|e| format!("ht: {e}"))?;
        }
        let coloring = Coloring::new(&pattern);
        let mut lane = [0; 26];
        for (c, l) in lane.iter_mut().enumerate().skip(GLOBAL) {
            *l = coloring.color_of(c - GLOBAL) as u8;
        }
        Ok(Compression {
            lane,
            lanes: coloring.colors(),
        })
    }
}

/// `value[name]` as an array, or an error naming it.
fn array<'a>(value: &'a Value, name: &str) -> Result<&'a Vec<Value>, String> {
    value
        .get(name)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("ht: the input has no array `{name}`"))
}

/// A number, or an error naming where it is.
fn number(v: &Value, what: &str) -> Result<f64, String> {
    v.as_f64()
        .ok_or_else(|| format!("ht: `{what}` holds {v}, not a number"))
}

/// An index below `len`, or an error naming where it is.
fn index(v: &Value, len: usize, what: &str) -> Result<usize, String> {
    v.as_u64()
        .map(|i| i as usize)
        .filter(|&i| i < len)
        .ok_or_else(|| format!("ht: `{what}` holds {v}, not an index below {len}"))
}

/// `K` numbers.
fn fixed<const K: usize>(v: &Value, what: &str) -> Result<[f64; K], String> {
    let a = v
        .as_array()
        .filter(|a| a.len() == K)
        .ok_or_else(|| format!("ht: each of `{what}` must hold {K} numbers"))?;
    let mut out = [0.0; K];
    for (o, x) in out.iter_mut().zip(a) {
        *o = number(x, what)?;
    }
    Ok(out)
}

/// A 4 x 4 matrix written as four rows, row-major.
fn matrix(v: &Value, what: &str) -> Result<[f64; 16], String> {
    let rows = v
        .as_array()
        .filter(|a| a.len() == 4)
        .ok_or_else(|| format!("ht: each of `{what}` must be 4 rows"))?;
    let mut out = [0.0; 16];
    for (i, row) in rows.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&fixed::<4>(row, what)?);
    }
    Ok(out)
}

impl Model {
    fn read(m: &Value) -> Result<Model, String> {
        let parents = array(m, "parents")?;
        let nb = parents.len();
        if nb == 0 || nb > MAX_BONES {
            return Err(format!(
                "ht: the model has {nb} bones; this tool takes 1 to {MAX_BONES}"
            ));
        }
        let parents = (parents.iter().enumerate())
            .map(|(b, p)| match p.as_i64() {
                Some(p) if p == -1 || (0..b as i64).contains(&p) => Ok(p),
                _ => Err(format!(
                    "ht: bone {b}'s parent is {p}: it must be -1 or an earlier bone"
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let matrices = |name: &str| -> Result<Vec<[f64; 16]>, String> {
            let a = array(m, name)?;
            if a.len() != nb {
                return Err(format!(
                    "ht: `{name}` has {} matrices for {nb} bones",
                    a.len()
                ));
            }
            (a.iter().enumerate())
                .map(|(b, x)| {
                    let t = matrix(x, name)?;
                    // [`bone_transforms`] multiplies the top three rows only.
                    if t[12..] != [0.0, 0.0, 0.0, 1.0] {
                        return Err(format!(
                            "ht: bone {b}'s matrix in `{name}` has last row {:?}: this tool \
                             takes rigid transforms, whose last row is [0, 0, 0, 1]",
                            &t[12..]
                        ));
                    }
                    Ok(t)
                })
                .collect()
        };
        let (base_rel, inv_abs) = (
            matrices("base_relatives")?,
            matrices("inverse_base_absolutes")?,
        );
        let positions = (array(m, "base_positions")?.iter())
            .map(|p| fixed::<4>(p, "base_positions"))
            .collect::<Result<Vec<_>, _>>()?;
        let rows = array(m, "weights")?;
        if rows.len() != positions.len() {
            return Err(format!(
                "ht: `weights` has {} rows for {} vertices",
                rows.len(),
                positions.len()
            ));
        }
        let (mut bones, mut weights) = (Vec::new(), Vec::new());
        for row in rows {
            let row = row
                .as_array()
                .filter(|r| r.len() == nb)
                .ok_or_else(|| format!("ht: each row of `weights` must hold {nb} numbers"))?;
            let (mut b, mut w) = (Vec::new(), Vec::new());
            for (k, x) in row.iter().enumerate() {
                let x = number(x, "weights")?;
                if x != 0.0 {
                    b.push(k);
                    w.push(x);
                }
            }
            bones.push(b);
            weights.push(w);
        }
        let triangles = (array(m, "triangles")?.iter())
            .map(|t| {
                let t = t
                    .as_array()
                    .filter(|t| t.len() == 3)
                    .ok_or_else(|| "ht: each triangle must hold 3 vertices".to_string())?;
                let mut out = [0; 3];
                for (o, v) in out.iter_mut().zip(t) {
                    *o = index(v, positions.len(), "triangles")?;
                }
                Ok(out)
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mirrored = m
            .get("is_mirrored")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        // A bone's transform reads its own angles and, through its parent's, its ancestors'.
        let mut chain = vec![0u32; nb];
        for b in 0..nb {
            let parent = usize::try_from(parents[b]).map_or(0, |p| chain[p]);
            chain[b] = own_columns(b) | parent;
        }
        let columns = (bones.iter())
            .map(|bs| bs.iter().fold(0b11_1111, |acc, &b| acc | chain[b]))
            .collect();
        Ok(Model {
            parents,
            base_rel,
            inv_abs,
            positions,
            bones,
            weights,
            triangles,
            mirrored,
            chain,
            columns,
        })
    }
}

impl Problem {
    pub fn read(input: &Value) -> Result<Problem, String> {
        let theta = fixed::<26>(
            input.get("theta").unwrap_or(&Value::Null),
            "theta (26 pose parameters)",
        )?;
        let data = input
            .get("data")
            .ok_or_else(|| "ht: the input has no `data`".to_string())?;
        let model = Model::read(
            data.get("model")
                .ok_or_else(|| "ht: the input has no `data.model`".to_string())?,
        )?;
        let us = match input.get("us").and_then(Value::as_array) {
            Some(us) => us
                .iter()
                .map(|u| fixed::<2>(u, "us"))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        let targets = if us.is_empty() {
            model.positions.len()
        } else {
            model.triangles.len()
        };
        let correspondences = (array(data, "correspondences")?.iter())
            .map(|c| index(c, targets, "correspondences"))
            .collect::<Result<Vec<_>, _>>()?;
        let points = (array(data, "points")?.iter())
            .map(|p| fixed::<3>(p, "points"))
            .collect::<Result<Vec<_>, _>>()?;
        let n = correspondences.len();
        if points.len() != n || !(us.is_empty() || us.len() == n) {
            return Err(format!(
                "ht: {n} correspondences, {} points and {} barycentric pairs: they must match",
                points.len(),
                us.len()
            ));
        }
        let compression = Compression::of(&model, !us.is_empty())?;
        Ok(Problem {
            model,
            theta,
            us,
            correspondences,
            points,
            compression,
        })
    }
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let p = Problem::read(input)?;
    let runs = crate::protocol::Runs::of(input);
    match function {
        "objective" => {
            let mut err = Vec::new();
            let (_, times) = runs.time(|| p.objective_into(&mut err));
            Ok((json!(err), times))
        }
        "jacobian" => {
            let mut rows = Rows::default();
            let (_, times) = runs.time(|| p.jacobian(&mut rows));
            let out: Vec<Vec<f64>> = if p.complicated() {
                rows.complicated.iter().map(|r| r.to_vec()).collect()
            } else {
                rows.simple.iter().map(|r| r.to_vec()).collect()
            };
            Ok((json!(out), times))
        }
        _ => Err(super::unknown("ht", function)),
    }
}

#[cfg(test)]
mod tests;
