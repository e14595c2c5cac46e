//! Where a local that holds a tuple is read, scope by scope: by field (`t.0`, `t.a`), or
//! otherwise (whole, `t.0.1`, `t.f()`). A pattern that binds the name again hides the local in
//! its scope: a `for` loop's body, a closure's, a `match` arm's, an `if let` branch, and the
//! statements after an inner `let` (whose value still reads the local).

use syn::visit::Visit;

/// The fields of `name` that `stmts` read, up to a `let` that binds `name` again (its value
/// included), where the name is this local; `None` where it is read otherwise.
pub(super) fn fields_read(name: &str, stmts: &[syn::Stmt]) -> Option<Vec<syn::Member>> {
    let mut reads = Reads {
        name,
        fields: Vec::new(),
        whole: false,
    };
    reads.stmts(stmts);
    (!reads.whole).then_some(reads.fields)
}

struct Reads<'n> {
    name: &'n str,
    fields: Vec<syn::Member>,
    whole: bool,
}

/// Whether the pattern binds `name`.
fn binds(p: &syn::Pat, name: &str) -> bool {
    struct Binds<'n>(&'n str, bool);
    impl<'a> Visit<'a> for Binds<'_> {
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            self.1 |= p.ident == self.0;
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut b = Binds(name, false);
    b.visit_pat(p);
    b.1
}

/// Whether a condition binds `name` (`if let Some(t) = ..`, also in a chain of `&&`).
fn cond_binds(e: &syn::Expr, name: &str) -> bool {
    match e {
        syn::Expr::Let(l) => binds(&l.pat, name),
        syn::Expr::Binary(b) => cond_binds(&b.left, name) || cond_binds(&b.right, name),
        syn::Expr::Paren(p) => cond_binds(&p.expr, name),
        _ => false,
    }
}

impl Reads<'_> {
    /// Statements in order, up to a `let` that binds the name again (its value read first).
    fn stmts(&mut self, stmts: &[syn::Stmt]) {
        for s in stmts {
            if let syn::Stmt::Local(l) = s
                && binds(&l.pat, self.name)
            {
                if let Some(init) = &l.init {
                    self.visit_expr(&init.expr);
                    if let Some((_, d)) = &init.diverge {
                        self.visit_expr(d);
                    }
                }
                return;
            }
            self.visit_stmt(s);
        }
    }

    fn is_name(&self, e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident(self.name))
    }
}

impl<'a> Visit<'a> for Reads<'_> {
    fn visit_block(&mut self, b: &'a syn::Block) {
        self.stmts(&b.stmts);
    }

    fn visit_expr_field(&mut self, f: &'a syn::ExprField) {
        if self.is_name(&f.base) {
            self.fields.push(f.member.clone());
            return;
        }
        // `t.0.1`, `t.a.b`: an element that is a tuple or a struct in turn.
        if let syn::Expr::Field(inner) = &*f.base
            && self.is_name(&inner.base)
        {
            self.whole = true;
            return;
        }
        syn::visit::visit_expr_field(self, f);
    }

    fn visit_expr_path(&mut self, p: &'a syn::ExprPath) {
        self.whole |= p.qself.is_none() && p.path.is_ident(self.name);
    }

    fn visit_expr_for_loop(&mut self, fl: &'a syn::ExprForLoop) {
        self.visit_expr(&fl.expr);
        if !binds(&fl.pat, self.name) {
            self.visit_block(&fl.body);
        }
    }

    fn visit_expr_closure(&mut self, c: &'a syn::ExprClosure) {
        if !c.inputs.iter().any(|p| binds(p, self.name)) {
            self.visit_expr(&c.body);
        }
    }

    fn visit_arm(&mut self, a: &'a syn::Arm) {
        if !binds(&a.pat, self.name) {
            if let Some((_, g)) = &a.guard {
                self.visit_expr(g);
            }
            self.visit_expr(&a.body);
        }
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        self.visit_expr(&i.cond);
        if !cond_binds(&i.cond, self.name) {
            self.visit_block(&i.then_branch);
        }
        if let Some((_, e)) = &i.else_branch {
            self.visit_expr(e);
        }
    }

    fn visit_expr_while(&mut self, w: &'a syn::ExprWhile) {
        self.visit_expr(&w.cond);
        if !cond_binds(&w.cond, self.name) {
            self.visit_block(&w.body);
        }
    }

    /// A macro's arguments (`assert!(t.0 > 0.0)`) are tokens: read as such, without scopes.
    fn visit_macro(&mut self, m: &'a syn::Macro) {
        self.whole |= !token_field_reads(m.tokens.clone(), self.name, &mut self.fields);
    }

    /// An item declared in a block does not see the function's locals.
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// Collects `k` for each `name.k` (`a` for each `name.a`) in `tokens`; false where `name`
/// stands otherwise (a field or path segment of that name, `x.name` or `a::name`, is another
/// thing).
pub(super) fn token_field_reads(
    tokens: proc_macro2::TokenStream,
    name: &str,
    fields: &mut Vec<syn::Member>,
) -> bool {
    use super::whole::{not_the_local, punct};
    use proc_macro2::TokenTree;
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tt) in tts.iter().enumerate() {
        match tt {
            TokenTree::Group(g) if !token_field_reads(g.stream(), name, fields) => return false,
            TokenTree::Ident(id) if *id == name => {
                let prev = i.checked_sub(1).and_then(|j| tts.get(j));
                if not_the_local(prev) {
                    continue;
                }
                // `t.k`, not `t.k.j` (an element that is a tuple in turn); `t.a`, not `t.a.b`
                // (a field of a field) or `t.f(..)` (a method of the struct).
                let deeper = punct(tts.get(i + 3), '.')
                    && match tts.get(i + 4) {
                        Some(TokenTree::Literal(_)) => true,
                        Some(TokenTree::Ident(_)) => !matches!(
                            tts.get(i + 5),
                            Some(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Parenthesis
                        ),
                        _ => false,
                    };
                let called = matches!(
                    tts.get(i + 3),
                    Some(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Parenthesis
                ) || punct(tts.get(i + 3), ':');
                let k = match tts.get(i + 2) {
                    _ if !punct(tts.get(i + 1), '.') || deeper || called => None,
                    Some(TokenTree::Literal(l)) => {
                        l.to_string().parse::<usize>().ok().map(syn::Member::from)
                    }
                    Some(TokenTree::Ident(f)) => Some(syn::Member::Named(f.clone())),
                    _ => None,
                };
                match k {
                    Some(k) => fields.push(k),
                    None => return false,
                }
            }
            _ => {}
        }
    }
    true
}
