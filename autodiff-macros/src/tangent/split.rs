//! Loop fission in the tangent sweep: a loop whose tangents read no value the loop itself
//! writes runs as two loops, the primal's and then the tangents'.
//!
//! Beside each other in one body, a value and its tangent double the loop's size and the
//! arrays it updates in place; in a loop nest like ADBench GMM's triangle
//! (`qx[b] += l[a][b] * xc[a]`, whose tangent reads only `l`, `xc` and their tangents) the
//! compiler then neither unrolls the nest nor keeps `qx` in registers as it does for the
//! primal, and vectorizes the short inner loop instead, whose stores the next outer iteration
//! reads back at another alignment. Split, the primal loop compiles as the primal does and the
//! tangent loop as a primal of its own size.
//!
//! Every statement of the tangent loop computes what it computed in the joint loop: the primal
//! loop runs first, but it writes nothing the tangents read (checked on the printed tangent
//! loop, by name, so a doubt keeps the loop whole), and the primal never reads a tangent. The
//! order of each half's statements, and so every sum's order, is the joint loop's.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::Tan;
use crate::ir::*;
use crate::names::{identifiers, occurrences};

/// What a definition prints: the value and its tangent, or one of them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    Both,
    Primal,
    Tangent,
}

impl Tan<'_> {
    /// `for .. { primal } for .. { tangents }` for a loop that can be split, or `None`.
    pub(super) fn split_loop(&mut self, s: &Stmt) -> Option<TokenStream> {
        if self.part != Part::Both || !self.splittable(s) || !has_inner_loop(s) {
            return None;
        }
        let mut defs = Vec::new();
        defined(s, &mut defs);
        // What the nest binds with `let` and never differentiates (an index `let j = ..`, a
        // counter) the tangent nest computes again for itself, so it does not count as written.
        let bound: Vec<Target> = (defs.iter())
            .filter(|(t, is_let)| *is_let && !self.act.target(*t))
            .map(|(t, _)| *t)
            .collect();
        let written: HashSet<String> = (defs.iter())
            .filter(|(t, _)| !bound.contains(t))
            .map(|(t, _)| self.fwd.target(*t).to_string())
            .collect();
        // The tangent nest computes again only those it reads: each round drops the `let`s
        // whose names the printed nest has only where it defines them.
        let mut again = bound;
        let tangent = loop {
            self.part = Part::Tangent;
            self.again = again.clone();
            let tangent = self.stmt(s);
            self.again.clear();
            let counts = occurrences(&tangent);
            let unread: Vec<Target> = (again.iter().copied())
                .filter(|&t| {
                    let name = self.fwd.target(t).to_string();
                    let defs = defs.iter().filter(|(d, _)| *d == t).count();
                    counts.get(&name).copied().unwrap_or(0) <= defs
                })
                .collect();
            if unread.is_empty() {
                break tangent;
            }
            again.retain(|t| !unread.contains(t));
        };
        self.part = Part::Primal;
        let primal = self.stmt(s);
        self.part = Part::Both;
        (!names_any(&tangent, &written)).then(|| quote!(#primal #tangent))
    }

    /// Definitions without calls and loops of them, with some tangent to compute, no branch,
    /// `break` or checkpoint.
    fn splittable(&self, s: &Stmt) -> bool {
        let mut active = false;
        let ok = self.only_defs_and_loops(s, &mut active);
        ok && active
    }

    fn only_defs_and_loops(&self, s: &Stmt, active: &mut bool) -> bool {
        match s {
            Stmt::Def { target, rhs, .. } => {
                *active |= self.act.target(*target);
                !matches!(rhs, Rhs::Call { .. })
            }
            Stmt::For { id, body, .. } => {
                self.f.loops[*id].checkpoint.is_none()
                    && body.tail.is_empty()
                    && body
                        .stmts
                        .iter()
                        .all(|s| self.only_defs_and_loops(s, active))
            }
            Stmt::If { .. } | Stmt::Break | Stmt::Continue | Stmt::Panic(_) => false,
        }
    }
}

/// Does the loop hold another? Fission pays in a nest, where the joint body is too large for
/// the compiler to unroll; a single loop's two halves each read the operands again.
fn has_inner_loop(s: &Stmt) -> bool {
    let Stmt::For { body, .. } = s else {
        return false;
    };
    body.stmts.iter().any(|s| matches!(s, Stmt::For { .. }))
}

/// The variables and temporaries a statement's definitions write, and whether each definition
/// is a `let`.
fn defined(s: &Stmt, out: &mut Vec<(Target, bool)>) {
    match s {
        Stmt::Def { target, is_let, .. } => out.push((*target, *is_let)),
        Stmt::For { body, .. } => body.stmts.iter().for_each(|s| defined(s, out)),
        Stmt::If { .. } | Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
    }
}

/// Does the printed code name any of `names`?
fn names_any(tokens: &TokenStream, names: &HashSet<String>) -> bool {
    !identifiers(tokens.clone()).is_disjoint(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jvp_body(src: &str) -> String {
        crate::tangent::jvp_body(src, None)
    }

    /// The loops of printed code, in order, by the name of their variable.
    fn loops(code: &str) -> Vec<&str> {
        let words: Vec<&str> = code.split_whitespace().collect();
        (words.windows(3))
            .filter(|w| w[0] == "for" && w[2] == "in")
            .map(|w| w[1])
            .collect()
    }

    #[test]
    fn a_nest_whose_tangents_read_only_what_it_does_not_write_is_split() {
        let code = jvp_body(
            "fn f(l: &[[f64; 4]; 4], x: &[f64; 4]) -> f64 {
                let mut q = [0.0; 4];
                for a in 0..4 { for b in a + 1..4 { q[b] += l[a][b] * x[a]; } }
                q[3]
            }",
        );
        assert_eq!(loops(&code), ["a", "b", "a", "b"], "{code}");
        let halves: Vec<&str> = code.split("for a").collect();
        assert!(
            halves[1].contains("q [b] =") && !halves[1].contains("t_q"),
            "{code}"
        );
        assert!(
            halves[2].contains("t_q [b] =") && !halves[2].contains(" q [b] ="),
            "{code}"
        );
    }

    #[test]
    fn what_the_nest_binds_and_does_not_differentiate_the_tangents_compute_again() {
        let code = jvp_body(
            "fn f(l: &[f64; 16], x: &[f64; 4]) -> f64 {
                let mut q = [0.0; 4];
                for a in 0..4 {
                    for b in a + 1..4 {
                        let j = a * 4 + b;
                        let c = (b as f64) * 0.5;
                        q[b] += l[j] * x[a] * c;
                    }
                }
                q[3]
            }",
        );
        assert_eq!(loops(&code), ["a", "b", "a", "b"], "{code}");
        let tangents = code.split("for a").nth(2).unwrap();
        assert!(
            tangents.contains("let j") && tangents.contains("let c"),
            "{code}"
        );
        // One the tangents do not read (`k`) is not computed again.
        let code = jvp_body(
            "fn f(l: &[f64; 16], x: &[f64; 4]) -> f64 {
                let mut q = [0.0; 4];
                let mut n = [0.0; 4];
                for a in 0..4 {
                    for b in a + 1..4 {
                        let j = a * 4 + b;
                        let k = (b as f64).exp();
                        n[b] = k;
                        q[b] += l[j] * x[a];
                    }
                }
                q[3] + n[2]
            }",
        );
        assert_eq!(loops(&code), ["a", "b", "a", "b"], "{code}");
        let (primal, tangents) = code.split_at(code.rfind("for a").unwrap());
        assert!(primal.contains("let k"), "{code}");
        assert!(
            tangents.contains("let j") && !tangents.contains("let k"),
            "{code}"
        );
        // A counter declared outside the nest is written by it: the nest stays whole.
        let code = jvp_body(
            "fn f(l: &[f64; 16], x: &[f64; 4]) -> f64 {
                let mut q = [0.0; 4];
                let mut j = 0;
                for a in 0..4 {
                    for b in a + 1..4 {
                        q[b] += l[j] * x[a];
                        j += 1;
                    }
                }
                q[3]
            }",
        );
        assert_eq!(loops(&code), ["a", "b"], "{code}");
    }

    #[test]
    fn a_nest_whose_tangents_read_what_it_writes_stays_whole() {
        // `t_s` reads `s` (the product rule of `s * x[b]`), which the nest writes.
        let code = jvp_body(
            "fn f(x: &[f64; 4]) -> f64 {
                let mut s = 1.0;
                for a in 0..4 { for b in a..4 { s = s * x[b]; } }
                s
            }",
        );
        assert_eq!(loops(&code), ["a", "b"], "{code}");
        // A temporary the nest defines and its tangent reads (`exp`'s result) too.
        let code = jvp_body(
            "fn f(x: &[f64; 4]) -> f64 {
                let mut s = 0.0;
                for a in 0..4 { for b in a..4 { s += (x[a] * x[b]).exp(); } }
                s
            }",
        );
        assert_eq!(loops(&code), ["a", "b"], "{code}");
    }

    #[test]
    fn single_loops_branches_and_calls_stay_whole() {
        let single = "fn f(l: &[f64; 4], x: f64) -> f64 {
            let mut s = 0.0;
            for a in 0..4 { s += l[a] * x; }
            s
        }";
        assert_eq!(loops(&jvp_body(single)), ["a"]);
        let branch = "fn f(l: &[f64; 4], x: f64) -> f64 {
            let mut s = 0.0;
            for a in 0..4 { for b in 0..4 { if b > a { s += l[a] * x; } } }
            s
        }";
        assert_eq!(loops(&jvp_body(branch)), ["a", "b"]);
        let call = "fn f(l: &[f64; 4], x: f64) -> f64 {
            let mut s = 0.0;
            for a in 0..4 { for b in 0..4 { s += g(l[b], x); } }
            s
        }";
        assert_eq!(loops(&jvp_body(call)), ["a", "b"]);
    }

    #[test]
    fn names_are_found_in_nested_groups() {
        let names: HashSet<String> = ["qx".to_string()].into();
        assert!(names_any(&quote!(t_y = (a[qx[b]] * 2.0);), &names));
        assert!(!names_any(
            &quote!(t_qx[b] = t_qx[b] + l[a] * t_xc[a];),
            &names
        ));
    }
}
