//! `assert!`, `assert_eq!` and `assert_ne!` statements, rewritten before lowering as the `if`
//! and `panic!` they stand for, so the forward sweep checks them where the function does (and
//! `f_try_forward` returns the message as `Err`):
//!
//! ```text
//! assert!(c);                  =>  if !(c) { panic!("assertion failed: c"); }
//! assert_eq!(a, b, "m");       =>  if !(a == b) { panic!("assertion `left == right` failed: m"); }
//! debug_assert!(c);            =>  (nothing: not checked in the generated functions)
//! ```
//!
//! The message is the first line of Rust's (the macro cannot print the values, which Rust's
//! `assert_eq!` adds). A message with format arguments is one error. The `debug_` forms are
//! left out of the generated functions, as release builds leave them out of the function.

use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

/// Rewrites the asserts of `block`; the errors of those it cannot take.
pub(super) fn desugar(block: &mut syn::Block) -> Vec<syn::Error> {
    struct Rewrite(Vec<syn::Error>);
    impl VisitMut for Rewrite {
        fn visit_block_mut(&mut self, b: &mut syn::Block) {
            syn::visit_mut::visit_block_mut(self, b);
            let mut out = Vec::with_capacity(b.stmts.len());
            for s in std::mem::take(&mut b.stmts) {
                let mac = match &s {
                    syn::Stmt::Macro(m) => Some(&m.mac),
                    syn::Stmt::Expr(syn::Expr::Macro(m), _) => Some(&m.mac),
                    _ => None,
                };
                let Some((mac, k)) = mac.and_then(|m| Some((m, kind(m)?))) else {
                    out.push(s);
                    continue;
                };
                // An assert the macro cannot take is left out after its error: one error.
                match rewrite(mac, k) {
                    Ok(stmt) => out.extend(stmt),
                    Err(e) => self.0.push(e),
                }
            }
            b.stmts = out;
        }
    }
    let mut r = Rewrite(Vec::new());
    r.visit_block_mut(block);
    r.0
}

/// Which assert a macro is: `assert`, `assert_eq` or `assert_ne`, and whether it is the
/// `debug_` form (also as `core::..` or `std::..`).
#[derive(Clone, Copy)]
struct Kind {
    op: Option<&'static str>,
    debug: bool,
}

fn kind(m: &syn::Macro) -> Option<Kind> {
    let [name] = super::std_path(&m.path).try_into().ok()?;
    let (debug, base) = match name.strip_prefix("debug_") {
        Some(base) => (true, base),
        None => (false, name.as_str()),
    };
    let op = match base {
        "assert" => None,
        "assert_eq" => Some("=="),
        "assert_ne" => Some("!="),
        _ => return None,
    };
    Some(Kind { op, debug })
}

/// The `if` an assert stands for (`None` for a `debug_` one), or the error of one whose
/// arguments are not a condition (or two operands) and at most a literal message.
fn rewrite(m: &syn::Macro, k: Kind) -> syn::Result<Option<syn::Stmt>> {
    let name = m.path.segments.last().expect("a path").ident.to_string();
    let example = match k.op {
        None => format!("`{name}!(x > 0.0)`"),
        Some(_) => format!("`{name}!(x.len(), y.len())`"),
    };
    let args = m
        .parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
        .map_err(|_| {
            syn::Error::new_spanned(
                m,
                format!("`{name}!` takes expressions here, as in {example}"),
            )
        })?;
    let args: Vec<&syn::Expr> = args.iter().collect();
    let operands = if k.op.is_some() { 2 } else { 1 };
    if args.len() < operands {
        return Err(syn::Error::new_spanned(
            m,
            format!("`{name}!` takes {operands} operand(s), as in {example}"),
        ));
    }
    // A `debug_` form is left out, whatever its message.
    if k.debug {
        return Ok(None);
    }
    let message = match &args[operands..] {
        [] => None,
        [
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }),
        ] if !s.value().contains(['{', '}']) => Some(s.value()),
        rest => {
            return Err(syn::Error::new_spanned(
                rest[0],
                format!(
                    "a message with format arguments is not supported in `{name}!` here: the forward sweep panics with a fixed message; write a literal one, as in `{name}!(.., \"x and y differ in length\")`"
                ),
            ));
        }
    };
    let (cond, text): (syn::Expr, String) = match k.op {
        None => {
            let c = args[0];
            let text = crate::names::user_text(&c.to_token_stream());
            (
                syn::parse_quote_spanned!(c.span()=> !(#c)),
                format!("assertion failed: {text}"),
            )
        }
        Some(op) => {
            let (a, b) = (args[0], args[1]);
            let op: syn::BinOp = syn::parse_str(op).expect("an operator");
            let first = format!("assertion `left {} right` failed", op.to_token_stream());
            (
                syn::parse_quote_spanned!(m.span()=> !((#a) #op (#b))),
                first,
            )
        }
    };
    let text = match (message, k.op) {
        (Some(msg), Some(_)) => format!("{text}: {msg}"),
        (Some(msg), None) => msg,
        (None, _) => text,
    };
    // A condition's text may hold braces (a block), which `panic!` would read as arguments.
    let text = text.replace('{', "(").replace('}', ")");
    Ok(Some(
        syn::parse_quote_spanned!(m.span()=> if #cond { panic!(#text); }),
    ))
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    fn rewrite(src: &str) -> (String, usize) {
        let mut b: syn::Block = syn::parse_str(src).unwrap();
        let errors = super::desugar(&mut b);
        (b.to_token_stream().to_string(), errors.len())
    }

    fn same(src: &str, expected: &str) {
        let b: syn::Block = syn::parse_str(expected).unwrap();
        assert_eq!(rewrite(src), (b.to_token_stream().to_string(), 0), "{src}");
    }

    #[test]
    fn asserts_become_an_if_and_a_panic() {
        same(
            "{ assert!(w > 0.0); s }",
            r#"{ if !(w > 0.0) { panic!("assertion failed: w > 0.0"); } s }"#,
        );
        same(
            r#"{ for i in 0..2 { core::assert_eq!(x.len(), y.len(), "lengths differ"); } s }"#,
            r#"{ for i in 0..2 { if !((x.len()) == (y.len())) {
                panic!("assertion `left == right` failed: lengths differ"); } } s }"#,
        );
        same(
            r#"{ std::assert_ne!(n, 0); assert!(a < b, "a before b"); s }"#,
            r#"{ if !((n) != (0)) { panic!("assertion `left != right` failed"); }
                if !(a < b) { panic!("a before b"); } s }"#,
        );
    }

    #[test]
    fn asserts_ending_a_block_and_in_closures_too() {
        same(
            "{ for i in 0..2 { assert!(x[i] > 0.0) } let y = a.map(|v| { assert!(v < 1.0); v }); s }",
            r#"{ for i in 0..2 { if !(x[i] > 0.0) { panic!("assertion failed: x[i] > 0.0"); } }
                let y = a.map(|v| { if !(v < 1.0) { panic!("assertion failed: v < 1.0"); } v }); s }"#,
        );
        // The condition as Rust prints it: calls without a space, a parenthesis after an
        // operator with one.
        same(
            "{ assert!(a * (b + c) > f(x)); s }",
            r#"{ if !(a * (b + c) > f(x)) { panic!("assertion failed: a * (b + c) > f(x)"); } s }"#,
        );
    }

    #[test]
    fn debug_asserts_go_and_other_macros_stay() {
        same(
            "{ debug_assert!(w > 0.0); debug_assert_eq!(a, b); s }",
            "{ s }",
        );
        same(
            r#"{ panic!("no"); println!("x"); s }"#,
            r#"{ panic!("no"); println!("x"); s }"#,
        );
    }

    #[test]
    fn a_formatted_message_is_one_error() {
        let src = r#"{ assert!(n > 0, "n = {}", n); s }"#;
        assert_eq!(rewrite(src).1, 1);
        assert_eq!(rewrite(r#"{ assert_eq!(n); s }"#).1, 1);
    }
}
