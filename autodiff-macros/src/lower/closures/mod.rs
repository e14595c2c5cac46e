//! Closures bound to a name and called, rewritten before lowering as the code each call stands
//! for: the closure's body where it is called, its parameters bound to the arguments.
//!
//! ```text
//! let sq = |v: f64| v * v;            let idx = |i: usize, j: usize| i * n + j;
//! let s = sq(x) + sq(a[k]);     =>    (x * x) + (a[k] * a[k])        y[(i * n + j)]
//! let t = sq(x + 1.0);          =>    { let v: f64 = x + 1.0; v * v }
//! a.map(sq)                     =>    a.map(|v: f64| v * v)
//! ```
//!
//! A body of one expression takes its arguments in place of its parameters where that reads
//! them as Rust does (places and literals, or an argument without side effects its parameter
//! reads once), so it also works where a block does not (an index, a condition); otherwise the
//! call is a block that binds the parameters first, in order. The body reads the names it
//! captures where it is called: a name bound again between the closure and a call (a `let`, a
//! loop's or a closure's parameter) is one error, as is a `move` closure reading a variable the
//! function assigns (it keeps its own copy). So is a closure used otherwise than called or
//! passed on by name (`a.map(sq)`), and a literal argument of a parameter without a type (whose
//! type Rust takes from the closure's other uses).

use std::collections::HashSet;
use std::rc::Rc;

use quote::format_ident;

mod names;
mod substitute;

use names::{free_names, pat_names};
use substitute::{substituted, untyped_literals};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// A closure in scope: its name, its body (calls to earlier closures already in it), the
/// names it reads from around it, and those bound again since it was made.
#[derive(Clone)]
struct Local {
    name: String,
    closure: syn::ExprClosure,
    free: HashSet<String>,
    rebound: HashSet<String>,
    /// Refused (its error reported): its calls and uses are left as written.
    refused: bool,
}

/// Rewrites the closures bound by `let` in `block` and their calls; the errors of those it
/// cannot take.
pub(super) fn desugar(block: &mut syn::Block) -> Vec<syn::Error> {
    if !mentions_closure(block) {
        return Vec::new();
    }
    let mut assigned = super::assigned::Assigned::default();
    assigned.visit_block(block);
    let mut d = Inline {
        env: Vec::new(),
        errors: Vec::new(),
        n: 0,
        assigned: assigned.0.into_iter().collect(),
    };
    d.visit_block_mut(block);
    d.errors
}

/// Whether a block holds a closure anywhere (most functions do not: they are left untouched).
fn mentions_closure(block: &syn::Block) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {
            self.0 = true;
        }
    }
    let mut v = V(false);
    v.visit_block(block);
    v.0
}

/// The rewrite's state: the closures in scope, innermost last.
struct Inline {
    env: Vec<Rc<Local>>,
    errors: Vec<syn::Error>,
    n: usize,
    /// The variables the function assigns (`x = ..`, `x += ..`, `x[i] = ..`).
    assigned: HashSet<String>,
}

impl Inline {
    /// Names bound from here on in this scope: a closure of one of them is out of scope, and
    /// closures reading one of them may not be called any more.
    fn bind(&mut self, names: &[String]) {
        self.env.retain(|l| !names.contains(&l.name));
        for l in &mut self.env {
            if names.iter().any(|n| l.free.contains(n)) {
                let l = Rc::make_mut(l);
                l.rebound
                    .extend(names.iter().filter(|n| l.free.contains(*n)).cloned());
            }
        }
    }

    /// `let name = |..| ..;` (with `ty`, the `let`'s type): the closure in scope from here on.
    fn define(&mut self, name: &syn::Ident, mut closure: syn::ExprClosure, ty: Option<&syn::Type>) {
        let refused = if closure.asyncness.is_some() || closure.constness.is_some() {
            Some("an `async` or `const` closure")
        } else if closure.lifetimes.is_some() || closure.movability.is_some() {
            Some("a closure with `for<..>` or `static`")
        } else if super::has_return(&closure.body) {
            Some("`return` in a closure")
        } else {
            None
        };
        if let Some(what) = refused {
            let e = format!(
                "{what} is not supported in a differentiable function; write its value as the closure's last expression, as in `let sq = |v: f64| v * v;`"
            );
            let e = syn::Error::new_spanned(&closure, e);
            return self.refuse(name, closure, e);
        }
        if let Some(syn::Type::BareFn(f)) = ty {
            typed_by(&mut closure, f);
        }
        let params: Vec<String> = closure.inputs.iter().flat_map(pat_names).collect();
        // The body's own calls of closures made before it, in the scope of its parameters.
        let saved = self.env.clone();
        self.bind(&params);
        self.visit_expr_mut(&mut closure.body);
        self.env = saved;
        let mut free = free_names(&closure.body);
        free.retain(|n| !params.contains(n));
        if closure.capture.is_some()
            && let Some(v) = free.iter().find(|n| self.assigned.contains(*n))
        {
            let e = format!(
                "this `move` closure copies `{v}`, which the function assigns: drop `move` (a closure that borrows `{v}` reads it where it is called, and keeps it from changing while it is used)"
            );
            let e = syn::Error::new_spanned(&closure, e);
            return self.refuse(name, closure, e);
        }
        self.bind(&[name.to_string()]);
        self.env.push(Rc::new(Local {
            name: name.to_string(),
            closure,
            free,
            rebound: HashSet::new(),
            refused: false,
        }));
    }

    /// A closure refused with `e`: in scope, its calls left as written (no more errors).
    fn refuse(&mut self, name: &syn::Ident, closure: syn::ExprClosure, e: syn::Error) {
        self.errors.push(e);
        self.bind(&[name.to_string()]);
        self.env.push(Rc::new(Local {
            name: name.to_string(),
            closure,
            free: HashSet::new(),
            rebound: HashSet::new(),
            refused: true,
        }));
    }

    /// The error of a use of `l` where a name it reads is bound again, if one is.
    fn report_rebound(&mut self, l: &Local, span: proc_macro2::Span) -> bool {
        let Some(v) = l.rebound.iter().next() else {
            return false;
        };
        self.errors.push(syn::Error::new(
            span,
            format!(
                "`{v}` is bound again between the closure `{}` and this use, and the closure reads the `{v}` of where it was made: give one of them another name",
                l.name
            ),
        ));
        true
    }

    /// The code a call of `l` with `args` stands for, or its error (and `0.0`).
    fn call(&mut self, l: &Local, args: Vec<syn::Expr>, span: proc_macro2::Span) -> syn::Expr {
        let inputs: Vec<&syn::Pat> = l.closure.inputs.iter().collect();
        let zero = syn::parse_quote_spanned!(span=> 0.0);
        if self.report_rebound(l, span) {
            return zero;
        }
        // A literal of a parameter without a type: Rust types it by the closure's other uses.
        for (p, a) in inputs.iter().zip(&args) {
            if !matches!(p, syn::Pat::Type(_) | syn::Pat::Wild(_)) && untyped_literals(a) {
                self.errors.push(syn::Error::new_spanned(
                    a,
                    format!(
                        "give the parameter `{}` of the closure `{}` a type (as in `|v: f64|`): Rust types this argument by the closure's other uses, which the macro does not follow",
                        quote::ToTokens::to_token_stream(p),
                        l.name
                    ),
                ));
                return zero;
            }
        }
        let ret = l.closure.output.clone();
        if let Some(e) = substituted(&inputs, &args, &l.closure.body, &ret) {
            return e;
        }
        // A block binding each parameter in order, through a fresh local first where an
        // argument reads a parameter's name (`d(b, a)` of `|a, b|`).
        let params: Vec<String> = inputs.iter().flat_map(|p| pat_names(p)).collect();
        let clash = args.iter().any(|a| {
            let names = free_names(a);
            params.iter().any(|p| names.contains(p))
        });
        let mut stmts: Vec<syn::Stmt> = Vec::new();
        let mut values: Vec<syn::Expr> = Vec::new();
        for a in args {
            if clash {
                let t = format_ident!("__stackgrad_arg_{}", self.n);
                self.n += 1;
                stmts.push(syn::parse_quote_spanned!(span=> let #t = #a;));
                values.push(syn::parse_quote_spanned!(span=> #t));
            } else {
                values.push(a);
            }
        }
        for (p, v) in inputs.iter().zip(values) {
            stmts.push(syn::parse_quote_spanned!(span=> let #p = #v;));
        }
        match &*l.closure.body {
            syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                stmts.extend(b.block.stmts.iter().cloned());
            }
            e => stmts.push(syn::Stmt::Expr(e.clone(), None)),
        }
        // The value with the closure's type, where it has one (`-> f32`).
        if let syn::ReturnType::Type(_, ty) = &ret
            && matches!(stmts.last(), Some(syn::Stmt::Expr(_, None)))
            && let Some(syn::Stmt::Expr(tail, None)) = stmts.pop()
        {
            let v = format_ident!("__stackgrad_value_{}", self.n);
            self.n += 1;
            stmts.push(syn::parse_quote_spanned!(span=> let #v: #ty = #tail;));
            stmts.push(syn::Stmt::Expr(syn::parse_quote_spanned!(span=> #v), None));
        }
        syn::Expr::Block(syn::ExprBlock {
            attrs: Vec::new(),
            label: None,
            block: syn::Block {
                brace_token: syn::token::Brace(span),
                stmts,
            },
        })
    }

    /// The closure a path (in parentheses or not) names, if one is in scope.
    fn named(&self, e: &syn::Expr) -> Option<Rc<Local>> {
        match e {
            syn::Expr::Paren(p) => self.named(&p.expr),
            syn::Expr::Path(p) if p.qself.is_none() => {
                let id = p.path.get_ident()?.to_string();
                self.env.iter().rev().find(|l| l.name == id).cloned()
            }
            _ => None,
        }
    }

    /// An argument naming a closure (`a.map(sq)`, `a.map(&sq)`): the closure itself.
    fn passed(&mut self, a: &mut syn::Expr) {
        let target = match &*a {
            syn::Expr::Reference(r) if r.mutability.is_none() => &*r.expr,
            a => a,
        };
        match self.named(target).filter(|l| !l.refused) {
            Some(l) => {
                if !self.report_rebound(&l, a.span()) {
                    *a = syn::Expr::Closure(l.closure.clone());
                }
            }
            None => self.visit_expr_mut(a),
        }
    }
}

impl VisitMut for Inline {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        let saved = self.env.clone();
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut s in std::mem::take(&mut b.stmts) {
            if let syn::Stmt::Local(l) = &s
                && let Some((name, closure, ty)) = closure_let(l)
            {
                let (name, closure, ty) = (name.clone(), closure.clone(), ty.cloned());
                self.define(&name, closure, ty.as_ref());
                continue;
            }
            self.visit_stmt_mut(&mut s);
            if let syn::Stmt::Local(l) = &s {
                self.bind(&pat_names(&l.pat));
            }
            out.push(s);
        }
        b.stmts = out;
        self.env = saved;
    }

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        // The pattern is bound after the statement (`visit_block_mut`).
        if let Some(init) = &mut l.init {
            self.visit_expr_mut(&mut init.expr);
            if let Some((_, e)) = &mut init.diverge {
                self.visit_expr_mut(e);
            }
        }
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        match e {
            syn::Expr::Call(c) => {
                match self.named(&c.func) {
                    Some(l) if !l.refused => {
                        let mut args: Vec<syn::Expr> = c.args.iter().cloned().collect();
                        for a in &mut args {
                            self.passed(a);
                        }
                        let span = c.span();
                        *e = self.call(&l, args, span);
                        return;
                    }
                    // A refused closure's call stays as written.
                    Some(_) => {}
                    None => self.visit_expr_mut(&mut c.func),
                }
                for a in c.args.iter_mut() {
                    self.passed(a);
                }
            }
            syn::Expr::MethodCall(m) => {
                self.visit_expr_mut(&mut m.receiver);
                for a in m.args.iter_mut() {
                    self.passed(a);
                }
            }
            syn::Expr::Path(_) => {
                if let Some(l) = self.named(e).filter(|l| !l.refused) {
                    self.errors.push(syn::Error::new_spanned(
                        &*e,
                        format!(
                            "the closure `{}` is supported where it is called (`{0}(x)`) or passed on by name (`a.map({0})`); here write its body, or make it a `#[differentiable]` function",
                            l.name
                        ),
                    ));
                    *e = syn::parse_quote_spanned!(e.span()=> 0.0);
                }
            }
            syn::Expr::Closure(c) => {
                let saved = self.env.clone();
                let params: Vec<String> = c.inputs.iter().flat_map(pat_names).collect();
                self.bind(&params);
                self.visit_expr_mut(&mut c.body);
                self.env = saved;
            }
            syn::Expr::ForLoop(f) => {
                self.visit_expr_mut(&mut f.expr);
                let saved = self.env.clone();
                self.bind(&pat_names(&f.pat));
                self.visit_block_mut(&mut f.body);
                self.env = saved;
            }
            // `matches!(value, pattern)`: the value's calls (the macro's tokens hide them).
            syn::Expr::Macro(m) => {
                if let Some(Ok((mut value, pat))) = super::matches::matches_args(m) {
                    self.visit_expr_mut(&mut value);
                    m.mac.tokens = quote::quote!(#value, #pat);
                }
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    fn visit_arm_mut(&mut self, a: &mut syn::Arm) {
        let saved = self.env.clone();
        self.bind(&pat_names(&a.pat));
        if let Some((_, g)) = &mut a.guard {
            self.visit_expr_mut(g);
        }
        self.visit_expr_mut(&mut a.body);
        self.env = saved;
    }
}

/// `let name = |..| ..;` (also `let mut name`, with a type): the name, the closure and the
/// type.
fn closure_let(l: &syn::Local) -> Option<(&syn::Ident, &syn::ExprClosure, Option<&syn::Type>)> {
    let (pat, ty) = match &l.pat {
        syn::Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
        p => (p, None),
    };
    let syn::Pat::Ident(pi) = pat else {
        return None;
    };
    let init = l.init.as_ref().filter(|i| i.diverge.is_none())?;
    match &*init.expr {
        syn::Expr::Closure(c) if pi.by_ref.is_none() && pi.subpat.is_none() => {
            Some((&pi.ident, c, ty))
        }
        _ => None,
    }
}

/// The parameter and result types of `let f: fn(f32) -> f32 = |v| ..;` given to the closure's
/// parameters without one, and to its result.
fn typed_by(closure: &mut syn::ExprClosure, f: &syn::TypeBareFn) {
    for (p, arg) in closure.inputs.iter_mut().zip(&f.inputs) {
        if !matches!(p, syn::Pat::Type(_)) {
            *p = syn::Pat::Type(syn::PatType {
                attrs: Vec::new(),
                pat: Box::new(p.clone()),
                colon_token: Default::default(),
                ty: Box::new(arg.ty.clone()),
            });
        }
    }
    if matches!(closure.output, syn::ReturnType::Default) {
        closure.output = f.output.clone();
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    /// The block `src` rewritten, printed as tokens, and its errors.
    fn rewrite(src: &str) -> (String, Vec<String>) {
        let mut b: syn::Block = syn::parse_str(src).expect("a block");
        let errors = super::desugar(&mut b);
        let text = b.to_token_stream().to_string();
        (text, errors.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn places_and_literals_are_taken_in_place() {
        let (text, errors) = rewrite(
            "{ let sq = |v: f64| v * v; let at = |i: usize, j: usize| i * n + j; \
             let s = sq(x) + sq(a[k]) + sq(p.w[1]) + y[at(i, 2)] + sq(-2.0); s }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            text,
            "{ let s = (x * x) + (a [k] * a [k]) + (p . w [1] * p . w [1]) \
             + y [(i * n + 2usize)] + ((- 2.0f64) * (- 2.0f64)) ; s }"
        );
    }

    #[test]
    fn a_borrowed_array_is_read_where_the_parameter_is() {
        let (text, _) = rewrite("{ let n = |v: &[f64; 2]| v[0] * v[1] + g(v); n(&a) }");
        assert_eq!(text, "{ (a [0] * a [1] + g (& a)) }");
    }

    #[test]
    fn computed_arguments_read_twice_are_bound_first() {
        let (text, _) = rewrite(
            "{ let sq = |v: f64| v * v; let lin = |v| 2.0 * v; sq(x + 1.0) + lin(x + 1.0) }",
        );
        assert_eq!(
            text,
            "{ ({ let v : f64 = x + 1.0 ; v * v }) + (2.0 * (x + 1.0)) }"
        );
    }

    #[test]
    fn arguments_that_read_the_parameters_names_go_through_fresh_locals() {
        let (text, _) = rewrite("{ let d = |a: f64, b: f64| { let m = a - b; m * m }; d(b, a) }");
        assert_eq!(
            text,
            "{ { let __stackgrad_arg_0 = b ; let __stackgrad_arg_1 = a ; \
             let a : f64 = __stackgrad_arg_0 ; let b : f64 = __stackgrad_arg_1 ; \
             let m = a - b ; m * m } }"
        );
    }

    #[test]
    fn a_closure_passed_on_and_one_calling_the_one_it_shadows() {
        let (text, _) =
            rewrite("{ let f = |v: f64| v + 1.0; let f = |v: f64| 2.0 * f(v); a.map(f) }");
        assert_eq!(text, "{ a . map (| v : f64 | 2.0 * (v + 1.0)) }");
    }

    #[test]
    fn an_argument_read_only_right_of_and_is_bound_first() {
        // Rust reads `x[i]` (which may panic) before the call; in place it would not run.
        let (text, _) = rewrite("{ let pos = |i: usize, v: f64| i < n && v > 0.0; pos(i, x[i]) }");
        assert_eq!(
            text,
            "{ { let __stackgrad_arg_0 = i ; let __stackgrad_arg_1 = x [i] ; \
             let i : usize = __stackgrad_arg_0 ; let v : f64 = __stackgrad_arg_1 ; \
             i < n && v > 0.0 } }"
        );
        // A name may go in place there: reading it cannot panic.
        let (text, _) = rewrite("{ let pos = |i: usize, v: f64| i < n && v > 0.0; pos(i, y) }");
        assert_eq!(text, "{ (i < n && y > 0.0) }");
    }

    #[test]
    fn only_a_literal_without_a_type_needs_the_parameters_type() {
        let (_, errors) = rewrite("{ let half = |v| v / 2.0; half(3.0) }");
        assert!(
            errors[0].starts_with("give the parameter `v`"),
            "{errors:?}"
        );
        let (text, errors) =
            rewrite("{ let half = |v| v / 2.0; half(3.0f32) + half(f64::consts::PI) }");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(text, "{ (3.0f32 / 2.0) + (f64 :: consts :: PI / 2.0) }");
    }

    #[test]
    fn a_name_bound_again_before_a_call_is_an_error() {
        let (_, errors) = rewrite("{ let c = |v: f64| v * k; let k = 1.0; c(x) }");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("`k` is bound again"), "{errors:?}");
        // Bound again in a block that ends before the call: no error.
        let (text, errors) = rewrite("{ let c = |v: f64| v * k; { let k = 1.0; } c(x) }");
        assert!(errors.is_empty(), "{errors:?}");
        assert!(text.ends_with("(x * k) }"), "{text}");
    }
}
