//! The names a closure's parts bind and read, for the closures pass and its substitution.

use std::collections::HashSet;

use syn::visit::Visit;

/// The names a pattern binds.
pub(super) fn pat_names(p: &syn::Pat) -> Vec<String> {
    struct V(Vec<String>);
    impl<'a> Visit<'a> for V {
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            self.0.push(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
        // A path in a pattern (`Mode::Fast`, a constant) binds nothing.
        fn visit_expr(&mut self, _: &'a syn::Expr) {}
        fn visit_path(&mut self, _: &'a syn::Path) {}
    }
    let mut v = V(Vec::new());
    v.visit_pat(p);
    v.0
}

/// The names an expression reads from around it: its one-segment paths not bound inside it,
/// and every identifier of a macro's tokens (a `matches!` reads its value there).
pub(super) fn free_names(e: &syn::Expr) -> HashSet<String> {
    struct V {
        bound: Vec<Vec<String>>,
        free: HashSet<String>,
    }
    impl V {
        fn scoped(&mut self, names: Vec<String>, f: impl FnOnce(&mut V)) {
            self.bound.push(names);
            f(self);
            self.bound.pop();
        }
        fn read(&mut self, name: String) {
            if !self.bound.iter().any(|s| s.contains(&name)) {
                self.free.insert(name);
            }
        }
    }
    impl<'a> Visit<'a> for V {
        fn visit_block(&mut self, b: &'a syn::Block) {
            self.scoped(Vec::new(), |v| {
                for s in &b.stmts {
                    v.visit_stmt(s);
                    if let syn::Stmt::Local(l) = s {
                        v.bound
                            .last_mut()
                            .expect("a scope")
                            .extend(pat_names(&l.pat));
                    }
                }
            });
        }
        fn visit_local(&mut self, l: &'a syn::Local) {
            if let Some(init) = &l.init {
                self.visit_expr(&init.expr);
                if let Some((_, e)) = &init.diverge {
                    self.visit_expr(e);
                }
            }
        }
        fn visit_expr_closure(&mut self, c: &'a syn::ExprClosure) {
            let names = c.inputs.iter().flat_map(pat_names).collect();
            self.scoped(names, |v| v.visit_expr(&c.body));
        }
        fn visit_expr_for_loop(&mut self, f: &'a syn::ExprForLoop) {
            self.visit_expr(&f.expr);
            self.scoped(pat_names(&f.pat), |v| v.visit_block(&f.body));
        }
        fn visit_arm(&mut self, a: &'a syn::Arm) {
            self.scoped(pat_names(&a.pat), |v| {
                if let Some((_, g)) = &a.guard {
                    v.visit_expr(g);
                }
                v.visit_expr(&a.body);
            });
        }
        fn visit_expr_path(&mut self, p: &'a syn::ExprPath) {
            if p.qself.is_none()
                && let Some(id) = p.path.get_ident()
            {
                self.read(id.to_string());
            }
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            for n in crate::lower::patterns::idents(m.tokens.clone()) {
                self.read(n);
            }
        }
    }
    let mut v = V {
        bound: Vec::new(),
        free: HashSet::new(),
    };
    v.visit_expr(e);
    v.free
}
