//! What a piece of syntax assigns, for the passes that rewrite it before lowering: they may
//! not move a read past an assignment of what it reads.

use syn::visit::Visit;

/// The variables the node it visits assigns (`x = ..`, `x += ..`, `x[i] = ..`, `x.f = ..`), by
/// the name at the root of the place.
#[derive(Default)]
pub(super) struct Assigned(pub(super) Vec<String>);

impl Assigned {
    fn root(&mut self, mut e: &syn::Expr) {
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
    fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
        if super::is_compound(&b.op).is_some() {
            self.root(&b.left);
        }
        syn::visit::visit_expr_binary(self, b);
    }
}

/// Whether an expression assigns (`=`, `+=` ..) anywhere in it.
pub(super) fn assigns(e: &syn::Expr) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_expr_assign(&mut self, _: &'a syn::ExprAssign) {
            self.0 = true;
        }
        fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
            self.0 |= super::is_compound(&b.op).is_some();
            syn::visit::visit_expr_binary(self, b);
        }
    }
    let mut v = V(false);
    v.visit_expr(e);
    v.0
}
