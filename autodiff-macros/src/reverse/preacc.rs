//! Statement-level preaccumulation: the derivative of one source statement as a sum of terms,
//! one per distinct place it reads, before any of it multiplies the cotangent.
//!
//! A statement such as `d += 3.0 * d + r` is lowered to a run of temporaries (`t0 = 3.0 * d`,
//! `t1 = t0 + r`, `d = d + t1`). Followed literally, its reverse passes `d_d` to `t1`, multiplies
//! it by 3 for the inner `d` and adds it back: `d_d += d_d * 3.0`. Here the run is read as one
//! linear form through `+`, `-`, negation, copies and products with (or exact divisions by) a
//! literal, the coefficients of a place read more than once are summed, and constants are folded
//! at expansion time: the statement's whole effect on `d_d` is `d_d *= 4.0`, and `r` receives
//! `d_d`. A product `x * x` of one place counts once with the coefficient `2 x`. Anything else
//! (a method, a call, a product of two values, a cast) ends the form: it is a term of its own,
//! reversed by the usual rules.
//!
//! The scalings of one place by consecutive statements (`c += c + 1.0; c += c;`) are folded
//! into one (`d_c *= 4.0`).
//!
//! The form is used when it saves work: when a place is read more than once, or when the
//! statement updates a place it reads (`v[i] = v[i] + t`, whose cotangent then stays where it is
//! instead of being taken, reset and added back).

use std::collections::HashSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::Rev;
use crate::ir::*;
use crate::print::pure_tokens;

/// One term of a statement's derivative: `coef * factor * s` goes to the cotangent of `leaf`.
struct Term<'f> {
    leaf: &'f Operand,
    /// The place `leaf` reads, as text (temporaries by id): terms with one key are summed.
    key: String,
    coef: f64,
    /// A value the term is multiplied by (`x` of `x * x`).
    factor: Option<&'f Operand>,
}

/// `x / c` is `x * (1 / c)` exactly when `c` is a power of two.
fn exact_reciprocal(c: f64) -> Option<f64> {
    let r = 1.0 / c;
    (c != 0.0 && r.is_finite() && r * c == 1.0 && c.abs().log2().fract() == 0.0).then_some(r)
}

/// A place as text: the variable and its projections (indices printed, reads ignored).
pub(super) fn place_key(var: VarId, proj: &[Proj]) -> String {
    let mut key = format!("v{var}");
    for p in proj {
        match p {
            Proj::Deref => {}
            Proj::Field(f) => key.push_str(&format!(".{f}")),
            Proj::Index(i) => {
                let t = pure_tokens(i, &mut |v, proj, _| {
                    let k = place_key(v, proj);
                    quote!(#k)
                });
                key.push_str(&format!("[{t}]"));
            }
            Proj::Range { .. } => {
                let t = p.range_tokens(&mut |i| {
                    pure_tokens(i, &mut |v, proj, _| {
                        let k = place_key(v, proj);
                        quote!(#k)
                    })
                });
                key.push_str(&format!("[{t}]"));
            }
        }
    }
    key
}

fn operand_key(o: &Operand) -> Option<String> {
    match o {
        Operand::Var { var, proj, .. } => Some(place_key(*var, proj)),
        Operand::Temp(t) => Some(format!("t{t}")),
        Operand::Const { .. } => None,
    }
}

impl<'a> Rev<'a> {
    /// The reverse of `target = rhs` by preaccumulation, where that saves work (see the module
    /// documentation); `None` to follow the statement literally. `before`: the statements of the
    /// block before this one.
    pub(super) fn preaccumulated(
        &mut self,
        id: usize,
        (target, place, is_let): (Target, &[Proj], bool),
        rhs: &'a Rhs,
        before: &'a [Stmt],
    ) -> Option<TokenStream> {
        let ty = match target {
            Target::Var(v) => self.place_ty(v, place),
            // Not used, or folded into its consumer's form.
            Target::Temp(t) if self.d_temps[t].is_none() => return None,
            Target::Temp(t) => self.f.temps[t].ty,
        };
        if !self.act.target(target) || self.f.types.kind(ty) != Kind::Float {
            return None;
        }
        // The temporaries of this statement: the run of temporary definitions just before it.
        let run: HashSet<TempId> = before
            .iter()
            .rev()
            .map_while(|s| match s {
                Stmt::Def {
                    target: Target::Temp(t),
                    place,
                    ..
                } if place.is_empty() => Some(*t),
                _ => None,
            })
            .filter(|&t| self.temp_uses[t] == 1)
            .collect();
        let mut terms = Vec::new();
        if !self.linear(rhs, 1.0, None, &run, &mut terms) {
            return None;
        }
        // Sum the terms of one place (with the same factor).
        let mut groups: Vec<Term<'a>> = Vec::new();
        let mut merged = false;
        for t in terms {
            // `x * x` is a sum of two uses already.
            merged |= t.factor.is_some();
            let same = |g: &&mut Term<'a>| {
                g.key == t.key && g.factor.and_then(operand_key) == t.factor.and_then(operand_key)
            };
            match groups.iter_mut().find(same) {
                Some(g) => {
                    g.coef += t.coef;
                    merged = true;
                }
                None => groups.push(t),
            }
        }
        // The statement updates a place it reads: the cotangent stays there, scaled.
        let own = match target {
            Target::Var(v) => {
                let key = place_key(v, place);
                let pos = groups
                    .iter()
                    .position(|g| g.key == key && g.factor.is_none())
                    .filter(|_| {
                        // Another place of the same variable might be this one at run time.
                        let same_var =
                            |g: &Term| matches!(g.leaf, Operand::Var { var, .. } if *var == v);
                        groups.iter().filter(|g| same_var(g)).count() == 1
                            && groups.iter().filter(|g| g.key == key).count() == 1
                    });
                pos.map(|p| (v, groups.remove(p).coef))
            }
            Target::Temp(_) => None,
        };
        if !merged && own.is_none() {
            return None;
        }
        let key = own.map(|(v, _)| place_key(v, place));
        // Only a scaling of the place scaled last: one scaling for both.
        if let (Some((_, coef)), true, Some(p)) = (own, groups.is_empty(), &mut self.pending)
            && coef != 0.0
            && key.as_ref() == Some(&p.0)
        {
            p.2 *= coef;
            return Some(TokenStream::new());
        }
        let mut out = self.flush_scaling();
        let s = match own {
            Some((v, _)) => self.d_place(v, place),
            None => {
                let in_loop = !self.f.def_nest[id].is_empty();
                self.seed(target, place, is_let, in_loop, &mut out, None)?
            }
        };
        for g in &groups {
            let c = self.scaled(&s, g.coef);
            let code = match g.factor {
                None if g.coef == 1.0 && own.is_none() => self.pass(g.leaf, &s),
                None => self.contrib(g.leaf, |_| Some(c)),
                Some(f) => self.contrib(g.leaf, |r| {
                    let vf = r.val(f);
                    Some(quote!(#c * #vf))
                }),
            };
            out.extend(code);
        }
        if let (Some((v, coef)), Some(key)) = (own, key) {
            if coef == 0.0 {
                let zero = self.f.types.zero_acc(self.place_ty(v, place));
                out.extend(quote!(#s = #zero;));
            } else if coef != 1.0 {
                self.pending = Some((key, s, coef));
            }
        }
        Some(out)
    }

    /// The scaling of a cotangent left pending by the last statement (see
    /// [`Self::preaccumulated`]): emitted before the next statement's code, unless that is a
    /// scaling of the same place, which is folded into it.
    pub(super) fn flush_scaling(&mut self) -> TokenStream {
        match self.pending.take() {
            Some((_, s, coef)) => {
                let c = Literal::f64_unsuffixed(coef);
                quote!(#s *= #c;)
            }
            None => TokenStream::new(),
        }
    }

    /// `coef * s` as tokens.
    fn scaled(&self, s: &TokenStream, coef: f64) -> TokenStream {
        let c = Literal::f64_unsuffixed(coef.abs());
        match (coef == 1.0, coef == -1.0, coef < 0.0) {
            (true, ..) => quote!(#s),
            (_, true, _) => quote!(-#s),
            (.., true) => quote!(-(#s * #c)),
            _ => quote!(#s * #c),
        }
    }

    /// Adds the terms of `k * factor * rhs` to `terms`, following the temporaries in `run`;
    /// `false` if `rhs` is not a linear form itself.
    fn linear(
        &self,
        rhs: &'a Rhs,
        k: f64,
        factor: Option<&'a Operand>,
        run: &HashSet<TempId>,
        terms: &mut Vec<Term<'a>>,
    ) -> bool {
        match rhs {
            Rhs::Copy(a) => self.operand(a, k, factor, run, terms),
            Rhs::Neg(a) => self.operand(a, -k, factor, run, terms),
            Rhs::Bin(BinOp::Add, a, b) => {
                self.operand(a, k, factor, run, terms);
                self.operand(b, k, factor, run, terms);
            }
            Rhs::Bin(BinOp::Sub, a, b) => {
                self.operand(a, k, factor, run, terms);
                self.operand(b, -k, factor, run, terms);
            }
            Rhs::Bin(BinOp::Mul, a, b) => match (a.literal(), b.literal()) {
                (Some(c), _) => self.operand(b, k * c, factor, run, terms),
                (_, Some(c)) => self.operand(a, k * c, factor, run, terms),
                _ => {
                    let (Operand::Var { .. }, Some(ka), Some(kb), None) =
                        (a, operand_key(a), operand_key(b), factor)
                    else {
                        return false;
                    };
                    if ka != kb {
                        return false;
                    }
                    terms.push(Term {
                        leaf: a,
                        key: ka,
                        coef: 2.0 * k,
                        factor: Some(a),
                    });
                }
            },
            Rhs::Bin(BinOp::Div, a, b) => match b.literal().and_then(exact_reciprocal) {
                Some(r) => self.operand(a, k * r, factor, run, terms),
                None => return false,
            },
            _ => return false,
        }
        true
    }

    /// Adds the terms of `k * factor * o`: a temporary of the run is followed into its
    /// definition when that is a linear form, anything else is a term.
    fn operand(
        &self,
        o: &'a Operand,
        k: f64,
        factor: Option<&'a Operand>,
        run: &HashSet<TempId>,
        terms: &mut Vec<Term<'a>>,
    ) {
        if let Operand::Temp(t) = o
            && run.contains(t)
            && self.act.temps[*t]
        {
            let mut inner = Vec::new();
            if self.linear(self.temp_defs[t], k, factor, run, &mut inner) {
                terms.extend(inner);
                return;
            }
        }
        if let Some(key) = operand_key(o) {
            terms.push(Term {
                leaf: o,
                key,
                coef: k,
                factor,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constant(tokens: TokenStream) -> Operand {
        Operand::Const { tokens, ty: 0 }
    }

    #[test]
    fn literals_fold_and_paths_do_not() {
        assert_eq!(constant(quote!(2.5)).literal(), Some(2.5));
        assert_eq!(constant(quote!(3)).literal(), Some(3.0));
        assert_eq!(constant(quote!(0.5_f32)).literal(), Some(0.5));
        assert_eq!(constant(quote!(K)).literal(), None);
        assert_eq!(constant(quote!(N as f64)).literal(), None);
    }

    #[test]
    fn literal_reciprocals_are_folded_constants_of_normal_size() {
        let r = |t: TokenStream| constant(t).literal_reciprocal().map(|r| r.to_string());
        assert_eq!(r(quote!(10.0)).as_deref(), Some("0.1"));
        assert_eq!(r(quote!(4)).as_deref(), Some("0.25"));
        assert_eq!(r(quote!(-2.0_f32)).as_deref(), Some("(- 0.5f32)"));
        assert_eq!(r(quote!(8e1_f64)).as_deref(), Some("0.0125f64"));
        assert_eq!(r(quote!(0.0)), None);
        assert_eq!(r(quote!(1e-200)), None);
        assert_eq!(r(quote!(1e200)), None);
        assert_eq!(r(quote!(K)), None);
    }

    #[test]
    fn only_powers_of_two_have_exact_reciprocals() {
        assert_eq!(exact_reciprocal(2.0), Some(0.5));
        assert_eq!(exact_reciprocal(-0.25), Some(-4.0));
        assert_eq!(exact_reciprocal(3.0), None);
        assert_eq!(exact_reciprocal(0.0), None);
        assert_eq!(exact_reciprocal(10.0), None);
    }

    #[test]
    fn places_print_their_projections() {
        let f = syn::Ident::new("w", proc_macro2::Span::call_site());
        let i = Pure::Var(3, Vec::new(), 0);
        let proj = vec![Proj::Deref, Proj::Field(f), Proj::Index(i)];
        assert_eq!(place_key(1, &proj), "v1.w[\"v3\"]");
        assert_eq!(place_key(1, &[]), "v1");
    }
}
