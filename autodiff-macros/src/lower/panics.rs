//! An `if` with a branch that ends in `panic!`, rewritten before lowering (after `match`es
//! became `if` chains) so that the panic is a statement of its own and the other branch gives
//! the value:
//!
//! ```text
//! if c { panic!("m") } else { e }      =>  { if c { panic!("m"); } e }
//! if c { e } else { panic!("m") }      =>  { if !(c) { panic!("m"); } e }
//! match n { 0 => a, _ => panic!("m") } =>  if matches!(n, 0) { a } else { panic!("m") }  => ..
//! ```
//!
//! Rust types a diverging branch as any type; the lowering gives every branch of an `if` used as
//! a value a value of its own, which a branch that panics has not. A branch whose other side
//! holds a `return` stays as written (an early `return` is lowered within `if` branches).

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

pub(super) fn desugar(block: &mut syn::Block) {
    struct Rewrite;
    impl VisitMut for Rewrite {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            syn::visit_mut::visit_expr_mut(self, e);
            if let syn::Expr::If(ifx) = e
                && let Some(rewritten) = hoist(ifx)
            {
                *e = rewritten;
            }
        }
    }
    Rewrite.visit_block_mut(block);
}

fn hoist(ifx: &syn::ExprIf) -> Option<syn::Expr> {
    let (_, els) = ifx.else_branch.as_ref()?;
    let cond = &ifx.cond;
    if diverges(&ifx.then_branch) {
        if super::has_return(els) {
            return None;
        }
        let panic = as_statement(&ifx.then_branch);
        return Some(match &**els {
            syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                let rest = &b.block.stmts;
                syn::parse_quote!({ if #cond #panic #(#rest)* })
            }
            other => syn::parse_quote!({ if #cond #panic #other }),
        });
    }
    match &**els {
        syn::Expr::Block(b)
            if b.label.is_none() && diverges(&b.block) && !returns_block(&ifx.then_branch) =>
        {
            let panic = as_statement(&b.block);
            let rest = &ifx.then_branch.stmts;
            Some(syn::parse_quote!({ if !(#cond) #panic #(#rest)* }))
        }
        _ => None,
    }
}

/// Whether a block ends in `panic!(..)`, with or without `;`.
fn diverges(b: &syn::Block) -> bool {
    match b.stmts.last() {
        Some(syn::Stmt::Macro(m)) => is_panic(&m.mac.path),
        Some(syn::Stmt::Expr(syn::Expr::Macro(m), _)) => is_panic(&m.mac.path),
        _ => false,
    }
}

/// `panic`, `core::panic` or `std::panic`: the macro the language takes.
pub(super) fn is_panic(path: &syn::Path) -> bool {
    super::std_path(path) == ["panic"]
}

/// The block with its final `panic!` as a statement (`panic!("m");`).
fn as_statement(b: &syn::Block) -> syn::Block {
    let mut b = b.clone();
    if let Some(last) = b.stmts.pop() {
        let mac = match last {
            syn::Stmt::Macro(m) => m.mac,
            syn::Stmt::Expr(syn::Expr::Macro(m), _) => m.mac,
            _ => unreachable!("`diverges` checked the last statement"),
        };
        b.stmts.push(syn::Stmt::Macro(syn::StmtMacro {
            attrs: Vec::new(),
            mac,
            semi_token: Some(Default::default()),
        }));
    }
    b
}

fn returns_block(b: &syn::Block) -> bool {
    let mut r = super::Returns::default();
    r.visit_block(b);
    r.0
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    fn rewrite(src: &str) -> String {
        let mut b: syn::Block = syn::parse_str(src).unwrap();
        super::desugar(&mut b);
        b.to_token_stream().to_string()
    }

    #[test]
    fn the_panic_becomes_a_statement_and_the_other_branch_the_value() {
        assert_eq!(
            rewrite(r#"{ let w = if y < 0.0 { panic!("neg") } else { let q = y; q.sqrt() }; w }"#),
            rewrite(r#"{ let w = { if y < 0.0 { panic!("neg"); } let q = y; q.sqrt() }; w }"#),
        );
        assert_eq!(
            rewrite(r#"{ if a { x } else { panic!("no") } }"#),
            rewrite(r#"{ { if !(a) { panic!("no"); } x } }"#),
        );
        // An `else if` chain: the panic at its end guards the last branch.
        assert_eq!(
            rewrite(r#"{ if a { x } else if b { y } else { panic!("no") } }"#),
            rewrite(r#"{ if a { x } else { if !(b) { panic!("no"); } y } }"#),
        );
    }

    #[test]
    fn ifs_without_a_panic_or_with_a_return_stay() {
        for src in [
            r#"{ if a { x } else { y } }"#,
            r#"{ if a { panic!("no") } else { return y; } }"#,
            r#"{ if a { return x; } else { panic!("no") } }"#,
        ] {
            let b: syn::Block = syn::parse_str(src).unwrap();
            assert_eq!(rewrite(src), b.to_token_stream().to_string());
        }
    }
}
