//! What a piece of syntax assigns, for the passes that rewrite it before lowering: they may
//! not move a read past an assignment of what it reads. A borrow `&mut` and the methods that
//! rearrange an array in place (`swap`, `reverse`, `fill`) count as assignments.

use syn::visit::Visit;

/// The variables the node it visits assigns (`x = ..`, `x += ..`, `x[i] = ..`, `x.f = ..`,
/// `&mut x`, `x.swap(..)`), by the name at the root of the place; and whether it assigns at
/// all (also a place without such a name, `(a, b) = ..`).
#[derive(Default)]
pub(super) struct Assigned(pub(super) Vec<String>, bool);

impl Assigned {
    fn root(&mut self, mut e: &syn::Expr) {
        self.1 = true;
        loop {
            e = match e {
                syn::Expr::Index(i) => &i.expr,
                syn::Expr::Field(f) => &f.base,
                syn::Expr::Paren(p) => &p.expr,
                syn::Expr::Unary(u) => &u.expr,
                syn::Expr::Path(p) => {
                    self.0.extend(p.path.get_ident().map(|i| i.to_string()));
                    return;
                }
                _ => return,
            }
        }
    }
}

impl<'a> Visit<'a> for Assigned {
    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        self.root(&a.left);
        syn::visit::visit_expr_assign(self, a);
    }
    fn visit_expr_reference(&mut self, r: &'a syn::ExprReference) {
        if r.mutability.is_some() {
            self.root(&r.expr);
        }
        syn::visit::visit_expr_reference(self, r);
    }
    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        if rearranges(m) {
            self.root(&m.receiver);
        }
        syn::visit::visit_expr_method_call(self, m);
    }
    fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
        if super::is_compound(&b.op).is_some() {
            self.root(&b.left);
        }
        syn::visit::visit_expr_binary(self, b);
    }
}

/// Whether a method call rearranges its receiver in place (`a.swap(i, j)`, `a.reverse()`,
/// `a.fill(v)`).
pub(super) fn rearranges(m: &syn::ExprMethodCall) -> bool {
    matches!(
        (m.method.to_string().as_str(), m.args.len()),
        ("swap", 2) | ("reverse", 0) | ("fill", 1)
    )
}

/// Whether an expression assigns (`=`, `+=` .., `&mut`, `a.swap(..)`) anywhere in it.
pub(super) fn assigns(e: &syn::Expr) -> bool {
    let mut a = Assigned::default();
    a.visit_expr(e);
    a.1
}

/// An expression without blocks, closures, macros or assignments: nothing in it binds a name
/// or changes a variable, so it may be evaluated where it is read instead of where it is
/// written.
pub(super) fn plain(e: &syn::Expr) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_block(&mut self, _: &'a syn::Block) {
            self.0 = false;
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {
            self.0 = false;
        }
        fn visit_macro(&mut self, _: &'a syn::Macro) {
            self.0 = false;
        }
    }
    let mut v = V(!assigns(e));
    v.visit_expr(e);
    v.0
}
