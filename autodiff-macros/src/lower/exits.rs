//! `return` inside loops, and `break 'l` / `continue 'l` of a loop around the innermost one,
//! rewritten before lowering into what the lowering takes: the plain `break` of the innermost
//! loop, `bool` flags, and an early `return` in an `if` after the outermost loop.
//!
//! ```text
//! for i in 0..n {                   let mut r: f64 = 0.0;
//!     for j in 0..m {               let mut done = false;
//!         if c { return v; }        for i in 0..n {
//!     }                     =>          for j in 0..m { if c { r = v; done = true; break; } }
//! }                                     if done { break; }
//! rest                              }
//!                                   if done { return r; }
//!                                   rest
//! ```
//!
//! `break 'l` from a loop inside `'l` sets `'l`'s flag (declared before `'l`) and breaks; after
//! each loop it leaves, `if flag { break; }`. `continue 'l` sets a flag declared at the start of
//! `'l`'s body and breaks; after the loop directly in `'l`'s body, `if flag { continue; }`, after
//! the loops in between `if flag { break; }`. A tuple value goes to one local per element. A
//! `loop` that ends the function (left by `return` alone) is followed by the value instead of
//! the `if`. Exits where the lowering refuses them (in a block or `if` used as a value, a
//! `break` with a value) stay as written, for its errors.

use proc_macro2::Span;
use quote::format_ident;
use syn::spanned::Spanned;

/// Where an exit goes: out of the function, or out of (or on with) the loop labelled so.
#[derive(Clone, PartialEq)]
enum Exit {
    Return,
    Break(String),
    Continue(String),
}

/// A loop around the statements being rewritten, with the flags its label's exits need.
struct Frame {
    label: Option<String>,
    brk: Option<syn::Ident>,
    cont: Option<syn::Ident>,
}

/// The locals a `return` inside the outermost loop writes: the value (one per tuple element)
/// and whether it returned.
struct Slot {
    values: Vec<syn::Ident>,
    done: syn::Ident,
}

/// The rewrite's state: the return type, the loops around the statements being rewritten,
/// the slot of the outermost loop's `return`, and a counter for fresh names.
struct Desugar {
    /// The return type's elements (one unless `tuple`); empty when it is not one the macro
    /// takes (the signature reports it), and then `return` stays as written.
    ret: Vec<syn::Type>,
    tuple: bool,
    frames: Vec<Frame>,
    slot: Option<Slot>,
    n: usize,
}

pub(super) fn desugar(block: &mut syn::Block, output: &syn::ReturnType) {
    let (ret, tuple) = match output {
        syn::ReturnType::Type(_, ty) => match &**ty {
            syn::Type::Tuple(t) => (t.elems.iter().cloned().collect(), true),
            ty => (vec![ty.clone()], false),
        },
        syn::ReturnType::Default => (Vec::new(), false),
    };
    // A return type the macro does not take: the signature reports it, `return` stays.
    let ret = match ret.iter().all(|t| super::literals::zero(t).is_some()) {
        true => ret,
        false => Vec::new(),
    };
    let mut d = Desugar {
        ret,
        tuple,
        frames: Vec::new(),
        slot: None,
        n: 0,
    };
    d.stmts(&mut block.stmts, true);
}

fn add(exits: &mut Vec<Exit>, more: Vec<Exit>) {
    for x in more {
        if !exits.contains(&x) {
            exits.push(x);
        }
    }
}

fn label_of(e: &syn::Expr) -> Option<String> {
    let label = match e {
        syn::Expr::ForLoop(l) => &l.label,
        syn::Expr::While(l) => &l.label,
        syn::Expr::Loop(l) => &l.label,
        _ => return None,
    };
    label.as_ref().map(|l| l.name.ident.to_string())
}

fn body_of(e: &mut syn::Expr) -> Option<&mut syn::Block> {
    match e {
        syn::Expr::ForLoop(l) => Some(&mut l.body),
        syn::Expr::While(l) => Some(&mut l.body),
        syn::Expr::Loop(l) => Some(&mut l.body),
        _ => None,
    }
}

impl Desugar {
    /// Rewrites a statement sequence; the exits it raises that leave it for an enclosing loop
    /// or the function. `fn_end`: the sequence ends the function (its body, or a branch or
    /// block that is the body's last statement).
    fn stmts(&mut self, stmts: &mut Vec<syn::Stmt>, fn_end: bool) -> Vec<Exit> {
        let mut exits = Vec::new();
        let count = stmts.len();
        let mut out = Vec::with_capacity(count);
        for (i, mut s) in std::mem::take(stmts).into_iter().enumerate() {
            if let syn::Stmt::Expr(e, _) = &mut s {
                if body_of(e).is_some() {
                    let (before, after, raised) = self.loop_stmt(e, fn_end && i + 1 == count);
                    out.extend(before);
                    out.push(s);
                    out.extend(after);
                    add(&mut exits, raised);
                    continue;
                }
                add(&mut exits, self.expr(e, fn_end && i + 1 == count));
            }
            out.push(s);
        }
        *stmts = out;
        exits
    }

    /// A statement that is not a loop: the `if`s and blocks it is made of, and its exits.
    /// `fn_end`: it ends the function (so do the branches and blocks it is made of).
    fn expr(&mut self, e: &mut syn::Expr, fn_end: bool) -> Vec<Exit> {
        match e {
            syn::Expr::If(ifx) => {
                let mut exits = self.stmts(&mut ifx.then_branch.stmts, fn_end);
                if let Some((_, els)) = &mut ifx.else_branch {
                    add(&mut exits, self.expr(els, fn_end));
                }
                exits
            }
            syn::Expr::Block(b) if b.label.is_none() => self.stmts(&mut b.block.stmts, fn_end),
            syn::Expr::Return(r) => match &r.expr {
                Some(v) if !self.frames.is_empty() && !self.ret.is_empty() => {
                    let v = (**v).clone();
                    *e = self.returned(v, r.span());
                    vec![Exit::Return]
                }
                _ => Vec::new(),
            },
            syn::Expr::Break(b) if b.expr.is_none() => {
                let label = b.label.as_ref().map(|l| l.ident.to_string());
                self.jump(e, label, false)
            }
            syn::Expr::Continue(c) => {
                let label = c.label.as_ref().map(|l| l.ident.to_string());
                self.jump(e, label, true)
            }
            _ => Vec::new(),
        }
    }

    /// `break 'l` (with `cont`, `continue 'l`) of a loop around the innermost one: its flag set
    /// and a plain `break`. Of the innermost loop's own label (also where an outer loop has it
    /// too, which Rust lets the inner one shadow) it stays, a `continue` without its label (the
    /// lowering takes the plain one).
    fn jump(&mut self, e: &mut syn::Expr, label: Option<String>, cont: bool) -> Vec<Exit> {
        let Some(label) = label else {
            return Vec::new();
        };
        if self.own_label() == Some(label.as_str()) {
            if let syn::Expr::Continue(c) = e {
                c.label = None;
            }
            return Vec::new();
        }
        let Some(k) = self.outer(&label) else {
            return Vec::new();
        };
        let (span, flag) = (e.span(), self.flag(k, cont));
        *e = syn::parse_quote_spanned!(span=> { #flag = true; break; });
        vec![match cont {
            true => Exit::Continue(label),
            false => Exit::Break(label),
        }]
    }

    /// The innermost loop's label.
    fn own_label(&self) -> Option<&str> {
        self.frames.last().and_then(|f| f.label.as_deref())
    }

    /// The frame of the loop labelled `label` around the innermost one (not the innermost).
    fn outer(&self, label: &str) -> Option<usize> {
        let (_, around) = self.frames.split_last()?;
        around
            .iter()
            .rposition(|f| f.label.as_deref() == Some(label))
    }

    /// Frame `k`'s flag for `continue` (`cont`) or `break`, made at its first use.
    fn flag(&mut self, k: usize, cont: bool) -> syn::Ident {
        let n = self.n;
        let frame = &mut self.frames[k];
        let (slot, kind) = match cont {
            true => (&mut frame.cont, "continue"),
            false => (&mut frame.brk, "break"),
        };
        if slot.is_none() {
            self.n += 1;
        }
        slot.get_or_insert_with(|| format_ident!("__stackgrad_{}_{}", kind, n))
            .clone()
    }

    /// `return v` inside a loop: the value into the slot, the flag set, and `break`.
    fn returned(&mut self, v: syn::Expr, span: Span) -> syn::Expr {
        if self.slot.is_none() {
            let n = self.n;
            self.n += 1;
            let values = (0..self.ret.len())
                .map(|k| format_ident!("__stackgrad_value_{}_{}", n, k))
                .collect();
            let done = format_ident!("__stackgrad_returned_{}", n);
            self.slot = Some(Slot { values, done });
        }
        let slot = self.slot.as_ref().expect("made above");
        let done = &slot.done;
        let stores: Vec<syn::Stmt> = match (&v, self.tuple) {
            (_, false) => {
                let r = &slot.values[0];
                vec![syn::parse_quote_spanned!(span=> #r = #v;)]
            }
            (syn::Expr::Tuple(t), true) if t.elems.len() == slot.values.len() => {
                let (r, e) = (slot.values.iter(), t.elems.iter());
                vec![syn::parse_quote_spanned!(span=> { #(#r = #e;)* })]
            }
            (_, true) => {
                let parts: Vec<syn::Ident> = (0..slot.values.len())
                    .map(|k| format_ident!("__stackgrad_part_{}", k))
                    .collect();
                let r = slot.values.iter();
                vec![
                    syn::parse_quote_spanned!(span=> let (#(#parts),*) = #v;),
                    syn::parse_quote_spanned!(span=> { #(#r = #parts;)* }),
                ]
            }
        };
        syn::parse_quote_spanned!(span=> { #(#stores)* #done = true; break; })
    }

    /// A loop statement: its body rewritten, and the statements to put before it (its flags)
    /// and after it (where its exits go next); the exits that leave the loop around it.
    /// `fn_end`: the loop ends the function.
    fn loop_stmt(
        &mut self,
        e: &mut syn::Expr,
        fn_end: bool,
    ) -> (Vec<syn::Stmt>, Vec<syn::Stmt>, Vec<Exit>) {
        let span = e.span();
        let outermost = self.frames.is_empty();
        self.frames.push(Frame {
            label: label_of(e),
            brk: None,
            cont: None,
        });
        let body = body_of(e).expect("a loop");
        let raised = self.stmts(&mut body.stmts, false);
        let frame = self.frames.pop().expect("pushed above");
        if let Some(flag) = &frame.cont {
            body.stmts
                .insert(0, syn::parse_quote_spanned!(span=> let mut #flag = false;));
        }
        let mut before = Vec::new();
        if let Some(flag) = &frame.brk {
            before.push(syn::parse_quote_spanned!(span=> let mut #flag = false;));
        }
        let (mut after, mut leaving) = (Vec::new(), Vec::new());
        let around = self.frames.last().and_then(|f| f.label.clone());
        for x in raised {
            let here = |l: &String| around.as_ref() == Some(l);
            match &x {
                Exit::Return if outermost => {
                    let slot = self.slot.take().expect("a return made the slot");
                    before.extend(self.declare(&slot, span));
                    let (values, done) = (&slot.values, &slot.done);
                    let value: syn::Expr = match self.tuple {
                        true => syn::parse_quote_spanned!(span=> (#(#values),*)),
                        false => syn::parse_quote_spanned!(span=> #(#values)*),
                    };
                    after.push(match fn_end {
                        true => syn::Stmt::Expr(value, None),
                        false => syn::parse_quote_spanned!(span=> if #done { return #value; }),
                    });
                    continue;
                }
                Exit::Return => {
                    let done = &self.slot.as_ref().expect("a return made the slot").done;
                    after.push(syn::parse_quote_spanned!(span=> if #done { break; }));
                }
                Exit::Break(l) => {
                    let k = self.find(l);
                    let flag = self.frames[k].brk.clone().expect("its break made it");
                    after.push(syn::parse_quote_spanned!(span=> if #flag { break; }));
                    if here(l) {
                        continue;
                    }
                }
                Exit::Continue(l) => {
                    let k = self.find(l);
                    let flag = self.frames[k].cont.clone().expect("its continue made it");
                    if here(l) {
                        after.push(syn::parse_quote_spanned!(span=> if #flag { continue; }));
                        continue;
                    }
                    after.push(syn::parse_quote_spanned!(span=> if #flag { break; }));
                }
            }
            leaving.push(x);
        }
        (before, after, leaving)
    }

    /// The frame of the loop labelled `label`, innermost first.
    fn find(&self, label: &str) -> usize {
        (self.frames.iter())
            .rposition(|f| f.label.as_deref() == Some(label))
            .expect("an exit raised inside the loop it names")
    }

    /// `let mut` of the slot's values (each the zero of its type) and of its flag.
    fn declare(&self, slot: &Slot, span: Span) -> Vec<syn::Stmt> {
        let mut out = Vec::new();
        for (r, ty) in slot.values.iter().zip(&self.ret) {
            let z = super::literals::zero(ty).expect("`desugar` keeps the types with a zero");
            out.push(syn::parse_quote_spanned!(span=> let mut #r: #ty = #z;));
        }
        let done = &slot.done;
        out.push(syn::parse_quote_spanned!(span=> let mut #done = false;));
        out
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    fn rewrite(ret: &str, src: &str) -> String {
        let mut b: syn::Block = syn::parse_str(src).unwrap();
        let output: syn::ReturnType = syn::parse_str(ret).unwrap();
        super::desugar(&mut b, &output);
        b.to_token_stream().to_string()
    }

    fn same(ret: &str, src: &str, expected: &str) {
        let b: syn::Block = syn::parse_str(expected).unwrap();
        assert_eq!(rewrite(ret, src), b.to_token_stream().to_string());
    }

    #[test]
    fn a_return_in_nested_loops_breaks_each_and_returns_after_the_outermost() {
        same(
            "-> f64",
            "{ for i in 0..3 { for j in 0..2 { if c { return v; } } s += 1.0; } s }",
            "{
                let mut __stackgrad_value_0_0: f64 = 0.0;
                let mut __stackgrad_returned_0 = false;
                for i in 0..3 {
                    for j in 0..2 {
                        if c { { __stackgrad_value_0_0 = v; __stackgrad_returned_0 = true; break; }; }
                    }
                    if __stackgrad_returned_0 { break; }
                    s += 1.0;
                }
                if __stackgrad_returned_0 { return __stackgrad_value_0_0; }
                s
            }",
        );
    }

    #[test]
    fn a_tuple_goes_to_one_local_per_element_and_a_final_loop_ends_in_the_value() {
        same(
            "-> (f64, [f64; 2])",
            "{ loop { if a { return (x, [y, x]); } if b { return g(x); } } }",
            "{
                let mut __stackgrad_value_0_0: f64 = 0.0;
                let mut __stackgrad_value_0_1: [f64; 2] = [0.0; 2];
                let mut __stackgrad_returned_0 = false;
                loop {
                    if a { { { __stackgrad_value_0_0 = x; __stackgrad_value_0_1 = [y, x]; }
                        __stackgrad_returned_0 = true; break; }; }
                    if b { { let (__stackgrad_part_0, __stackgrad_part_1) = g(x);
                        { __stackgrad_value_0_0 = __stackgrad_part_0; __stackgrad_value_0_1 = __stackgrad_part_1; }
                        __stackgrad_returned_0 = true; break; }; }
                }
                (__stackgrad_value_0_0, __stackgrad_value_0_1)
            }",
        );
    }

    #[test]
    fn a_loop_ending_a_branch_that_ends_the_function_ends_in_the_value() {
        same(
            "-> f64",
            "{ if a { loop { if c { return x; } } } else { a } }",
            "{
                if a {
                    let mut __stackgrad_value_0_0: f64 = 0.0;
                    let mut __stackgrad_returned_0 = false;
                    loop {
                        if c { { __stackgrad_value_0_0 = x; __stackgrad_returned_0 = true; break; }; }
                    }
                    __stackgrad_value_0_0
                } else { a }
            }",
        );
    }

    #[test]
    fn labelled_break_and_continue_set_flags_checked_after_each_loop_they_leave() {
        same(
            "-> f64",
            "{ 'a: for i in 0..3 { 'b: for j in 0..3 { for k in 0..3 {
                if p { continue 'a; } if q { break 'b; } if r { continue 'b; } if t { break 'a; }
            } } } s }",
            "{
                let mut __stackgrad_break_3 = false;
                'a: for i in 0..3 {
                    let mut __stackgrad_continue_0 = false;
                    let mut __stackgrad_break_1 = false;
                    'b: for j in 0..3 {
                        let mut __stackgrad_continue_2 = false;
                        for k in 0..3 {
                            if p { { __stackgrad_continue_0 = true; break; }; }
                            if q { { __stackgrad_break_1 = true; break; }; }
                            if r { { __stackgrad_continue_2 = true; break; }; }
                            if t { { __stackgrad_break_3 = true; break; }; }
                        }
                        if __stackgrad_continue_0 { break; }
                        if __stackgrad_break_1 { break; }
                        if __stackgrad_continue_2 { continue; }
                        if __stackgrad_break_3 { break; }
                    }
                    if __stackgrad_continue_0 { continue; }
                    if __stackgrad_break_3 { break; }
                }
                s
            }",
        );
    }

    #[test]
    fn exits_the_lowering_takes_or_refuses_stay() {
        for (ret, src) in [
            // A return outside loops, a loop's own label, a break with a value, a return in
            // an `if` used as a value, a closure's return, a function without a value.
            ("-> f64", "{ if c { return v; } s }"),
            ("-> f64", "{ 'a: for i in 0..2 { if c { break 'a; } } s }"),
            // The inner loop's own label, which shadows the outer one's.
            (
                "-> f64",
                "{ 'a: for i in 0..2 { 'a: for j in 0..2 { if c { break 'a; } } } s }",
            ),
            ("-> f64", "{ let r = loop { break 1.0; }; r }"),
            (
                "-> f64",
                "{ for i in 0..2 { let y = if c { return v } else { 1.0 }; } s }",
            ),
            (
                "-> f64",
                "{ for i in 0..2 { let f = |x: f64| { return x; }; } s }",
            ),
            ("", "{ for i in 0..2 { return v; } }"),
            ("-> Params", "{ for i in 0..2 { return v; } }"),
        ] {
            let b: syn::Block = syn::parse_str(src).unwrap();
            assert_eq!(rewrite(ret, src), b.to_token_stream().to_string(), "{src}");
        }
        // A loop's own label on `continue` is dropped: the lowering takes a plain one.
        same(
            "-> f64",
            "{ 'a: for i in 0..2 { if c { continue 'a; } } s }",
            "{ 'a: for i in 0..2 { if c { continue; } } s }",
        );
    }
}
