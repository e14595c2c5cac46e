//! `let y = g(..);` whose value is only ever passed on whole by value (`h(y)`): a float or an
//! array, which the macro cannot tell from here. Its type is named through `g`'s contract
//! ([`TyVal::Whole`]), so that either compiles.

use std::collections::HashSet;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

use super::Lower;
use crate::ir::*;

/// Words before a parenthesis that are not a call.
const NOT_CALLS: [&str; 12] = [
    "if", "while", "match", "return", "in", "for", "loop", "let", "else", "as", "break", "mut",
];

/// Whether `rest` (what follows `let name = ..;` in its block) uses `name` at least once and
/// only as a whole argument of a call by a plain path (`h(y)`, `m::h(x, y)`: not `&y`, `y * 2.0`,
/// `x.max(y)`, `f64::exp(y)` or `h::<N>(y)`) that goes through the callee's contract (no other
/// argument a struct field or a `const` item, whose type the macro cannot see), and `conts`
/// (what follows the block) never names it.
pub(super) fn only_passed_whole(name: &str, rest: &[syn::Stmt], conts: &[&[syn::Stmt]]) -> bool {
    let mut uses = 0;
    let scan = Scan {
        name,
        borrow: false,
        slots: false,
    };
    for s in rest {
        if !scan.whole_args(s.to_token_stream(), false, &mut uses) {
            return false;
        }
    }
    for s in conts.iter().flat_map(|c| c.iter()) {
        let mut any = 0;
        if !scan.whole_args(s.to_token_stream(), false, &mut any) || any > 0 {
            return false;
        }
    }
    uses > 0
}

/// Whether `stmts` use the reference parameter `name` at least once and only as a whole
/// argument of calls, as above, also borrowed again (`g(&p)`, as `hvp`'s tangent program
/// passes a struct's tangent), and also beside a struct's field or a `const` item (the call
/// goes through the callee's slot forwarders, [`crate::ir::Func::through_slots`], and the
/// callee states the parameter's zero as for any call through its contract).
fn param_only_passed_whole(name: &str, stmts: &[syn::Stmt]) -> bool {
    let mut uses = 0;
    let scan = Scan {
        name,
        borrow: true,
        slots: true,
    };
    (stmts.iter()).all(|s| scan.whole_args(s.to_token_stream(), false, &mut uses)) && uses > 0
}

/// A scan for `name` as a whole argument; `borrow`: `&name` counts as one; `slots`: also in a
/// call not through its callee's contract (that passes a field or a `const` item).
struct Scan<'a> {
    name: &'a str,
    borrow: bool,
    slots: bool,
}

/// Whether `t` is the punctuation `c` (the token scans over what follows a `let`).
pub(super) fn punct(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// Whether the token before a name makes it another thing than the local: a field or path
/// segment of that name (`x.name`, `a::name`).
pub(super) fn not_the_local(prev: Option<&TokenTree>) -> bool {
    punct(prev, '.') || punct(prev, ':')
}

impl Scan<'_> {
    /// Counts the uses of `name` in `tokens` (`args`: the tokens are a call's arguments); false
    /// where one is not a whole argument of a call.
    fn whole_args(&self, tokens: TokenStream, args: bool, uses: &mut usize) -> bool {
        self.whole_args_here(tokens, args, uses).is_some()
    }

    /// [`Scan::whole_args`], `Some` of the uses that are `tokens`' own (not inside a group of
    /// them): a call's contract matters for the arguments it is passed itself, not for those of
    /// a call in one of its arguments (`g2(W[1], g0(x, mode))` passes `mode` to `g0`).
    fn whole_args_here(&self, tokens: TokenStream, args: bool, uses: &mut usize) -> Option<usize> {
        let name = self.name;
        let mut here = 0;
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, tt) in tts.iter().enumerate() {
            let prev = i.checked_sub(1).and_then(|j| tts.get(j));
            match tt {
                TokenTree::Group(g) => {
                    // `h(..)`: a call by a plain path (not a method, a turbofish, a keyword's
                    // parenthesis or a float method by its type's path, `f64::exp(..)`).
                    let back = |k: usize| i.checked_sub(k).and_then(|j| tts.get(j));
                    let float_fn = punct(back(2), ':')
                        && matches!(back(4), Some(TokenTree::Ident(t)) if *t == "f64" || *t == "f32");
                    let call = g.delimiter() == proc_macro2::Delimiter::Parenthesis
                        && matches!(prev, Some(TokenTree::Ident(id)) if !NOT_CALLS.contains(&id.to_string().as_str()))
                        && !punct(back(2), '.')
                        && !float_fn;
                    let own = self.whole_args_here(g.stream(), call, uses)?;
                    if call && own > 0 && !self.slots && !through_contract(g.stream()) {
                        return None;
                    }
                }
                TokenTree::Ident(id) if *id == name => {
                    if not_the_local(prev) {
                        continue;
                    }
                    // `&name` where borrowing counts: what comes before the `&`.
                    let prev = match self.borrow && punct(prev, '&') {
                        true => i.checked_sub(2).and_then(|j| tts.get(j)),
                        false => prev,
                    };
                    let alone = args
                        && (prev.is_none() || punct(prev, ','))
                        && (tts.get(i + 1).is_none() || punct(tts.get(i + 1), ','));
                    if !alone {
                        return None;
                    }
                    *uses += 1;
                    here += 1;
                }
                _ => {}
            }
        }
        Some(here)
    }
}

/// Whether a call's arguments name no struct field (`p.w`, `&p.w`) or `const` item (`W`) at
/// their top level: a call the macro sends through its callee's contract. (Conservative: a
/// method call in an argument, `x.max(y)`, counts as a field.)
fn through_contract(args: TokenStream) -> bool {
    let tts: Vec<TokenTree> = args.into_iter().collect();
    let field = tts.windows(2).any(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(p), TokenTree::Ident(_)) if p.as_char() == '.')
    });
    let constant = tts.iter().any(|t| {
        matches!(t, TokenTree::Ident(id) if {
            let s = id.to_string();
            s.starts_with(|c: char| c.is_ascii_uppercase())
                && s.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
    });
    !field && !constant
}

impl Lower {
    /// The struct parameters `block` only passes on whole to calls by a plain path
    /// (`g(x, mode)`): maybe fieldless enums, whose zero derivative the callee states.
    pub(super) fn only_passed_on(&self, block: &syn::Block) -> HashSet<VarId> {
        (self.f.params.iter().copied())
            .filter(|&v| {
                let var = &self.f.vars[v];
                // A method's receiver is its struct, never an enum (its derivative stays the
                // struct, as its callers' `m_grad` return it).
                var.name != crate::names::SELF
                    && matches!(self.f.types.get(var.ty), TyVal::Struct(_))
                    && param_only_passed_whole(&var.name.to_string(), &block.stmts)
            })
            .collect()
    }

    /// After the body: a struct parameter only ever passed to calls whose values carry no
    /// derivative (in conditions) reached no callee that states its zero; it carries no
    /// derivative here either. Unless `wrt(..)` names it, it is taken as data of its own type,
    /// as an enum the function matches on is (out of the gradient; its zero, a copy, and its
    /// tangent, any value of its type, are what its callers need of it).
    pub(super) fn not_passed_on(&mut self, args: &crate::args::Args) {
        let params = self.f.params.clone();
        for v in std::mem::take(&mut self.passed_on) {
            let listed = (args.wrt.iter().flatten()).any(|w| *w == self.f.vars[v].name);
            if !listed && let Some(i) = params.iter().position(|&p| p == v) {
                self.f.types.as_data(self.f.vars[v].ty);
                self.f.wrt.retain(|&k| k != i);
            }
        }
    }

    /// A call through its callee's slot forwarders that passes a struct parameter only passed on
    /// (`g(x, mode)`): the parameter's zero derivative becomes the one the callee states for
    /// that argument (`GZero{i}`), the first such call's.
    pub(super) fn pass_on(&mut self, path: &syn::Path, args: &[Operand]) {
        if self.passed_on.is_empty() {
            return;
        }
        // Another method of the `impl` block: the caller knows what it differentiates, and
        // the parameter keeps the struct's type (an enum among them is matched in a method).
        if self.f.known_callee(path).is_some() || !self.f.through_slots(path, args) {
            for a in args {
                if let Operand::Var { var, .. } = a {
                    self.passed_on.remove(var);
                }
            }
            return;
        }
        for (i, a) in args.iter().enumerate() {
            if let Operand::Var { var, proj, .. } = a
                && proj.is_empty()
                && self.passed_on.remove(var)
            {
                let zero = crate::names::zero_path(path, i);
                let param = self.f.vars[*var].emit.clone();
                self.f.types.passed_on(self.f.vars[*var].ty, zero, param);
            }
        }
    }

    /// After `let y = g(..);` (lowered as a float): where `y` is only passed on whole, its type
    /// becomes what `g`'s contract names ([`TyVal::Whole`]). (`hvp`'s tangent program reads
    /// the type back from its text instead.)
    pub(super) fn passed_whole(&mut self, local: &syn::Local) {
        let syn::Pat::Ident(pi) = &local.pat else {
            return;
        };
        if !self.whole_ok {
            return;
        }
        let Some(v) = self.lookup(&pi.ident.to_string()) else {
            return;
        };
        let ty = self.f.vars[v].ty;
        let untyped = matches!(self.f.types.get(ty), TyVal::Unknown(Kind::Float));
        let Some((path, args)) = self.call_sigs.get(&ty).cloned() else {
            return;
        };
        let named = (path.segments.last()).is_some_and(|s| !s.arguments.is_empty());
        if !untyped || named || !self.call_lets.contains_key(&v) || self.tuple_lets.contains_key(&v)
        {
            return;
        }
        self.f
            .types
            .whole(ty, crate::types::CallOut::of(&path, args));
    }
}

#[cfg(test)]
mod tests {
    use super::only_passed_whole;

    fn whole(body: &str) -> bool {
        let block: syn::Block = syn::parse_str(body).unwrap();
        only_passed_whole("y", &block.stmts[1..], &[])
    }

    /// Only a name passed whole, by value, to calls by a plain path counts.
    #[test]
    fn a_value_only_passed_on_whole() {
        assert!(whole("{ let y = g(x); h(y, 2.0) + m::k(x, y) }"));
        assert!(whole("{ let y = g(x); let z = h(y); z * p.y }"));
        assert!(!whole("{ let y = g(x); h(&y) }"));
        assert!(!whole("{ let y = g(x); h(y) * y }"));
        assert!(!whole("{ let y = g(x); x.max(y) }"));
        assert!(!whole("{ let y = g(x); h::<3>(y) }"));
        assert!(!whole("{ let y = g(x); h(y[0]) }"));
        assert!(!whole("{ let y = g(x); if (y) { 1.0 } else { 0.0 } }"));
        assert!(!whole("{ let y = g(x); 1.0 }"));
        // A float method by its type's path; a call that also passes a field or a `const`.
        assert!(!whole("{ let y = g(x); f64::exp(y) }"));
        assert!(!whole("{ let y = g(x); f32::max(y, x) }"));
        assert!(!whole("{ let y = g(x); h(y, p.w) }"));
        assert!(!whole("{ let y = g(x); h(y, &W) }"));
        assert!(whole("{ let y = g(x); h(y, (p.w * 2.0)) }"));
    }
}
