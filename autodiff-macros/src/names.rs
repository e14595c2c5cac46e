//! Names of generated items and locals: tape types, companions of a callee, fresh hygienic
//! identifiers, labels; and how a span or tokens read in a doc comment or an error.

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::ToTokens;

/// The name `self` takes in the hidden functions a method's body becomes.
pub const SELF: &str = "self_";

/// Code as the user wrote it, for a message: `self_` (what the macro renames `self` to in a
/// method's body) is `self` again.
pub fn user_text(t: &TokenStream) -> String {
    fn unhide(t: TokenStream) -> TokenStream {
        t.into_iter()
            .map(|tt| match tt {
                proc_macro2::TokenTree::Ident(i) if i == SELF => {
                    proc_macro2::TokenTree::Ident(Ident::new("self", i.span()))
                }
                proc_macro2::TokenTree::Group(g) => {
                    let mut n = proc_macro2::Group::new(g.delimiter(), unhide(g.stream()));
                    n.set_span(g.span());
                    proc_macro2::TokenTree::Group(n)
                }
                tt => tt,
            })
            .collect()
    }
    text(&unhide(t.clone()))
}

/// The tape type's name: `my_fn` -> `MyFnTape`.
pub fn tape_name(ident: &Ident) -> Ident {
    Ident::new(&format!("{}Tape", camel(ident)), ident.span())
}

/// `my_fn` -> `MyFn`, the stem of the generated type and trait names.
pub fn camel(ident: &Ident) -> String {
    let mut s = String::new();
    for part in ident.to_string().trim_start_matches("r#").split('_') {
        let mut c = part.chars();
        if let Some(first) = c.next() {
            s.extend(first.to_uppercase());
            s.push_str(c.as_str());
        }
    }
    s
}

/// The path of a callee's companion: `m::g` -> `m::g_forward`, `m::GTape`.
pub fn companion(path: &syn::Path, f: impl Fn(&Ident) -> Ident) -> TokenStream {
    let mut p = path.clone();
    if let Some(last) = p.segments.last_mut() {
        last.ident = f(&last.ident);
    }
    p.to_token_stream()
}

/// The path of a callee's contract trait: `m::g::<N>` -> `m::GCall` (its constants are
/// inferred from the arguments' types).
pub fn contract_path(path: &syn::Path) -> TokenStream {
    let mut p = path.clone();
    if let Some(last) = p.segments.last_mut() {
        last.ident = contract_name(&last.ident);
        last.arguments = syn::PathArguments::None;
    }
    p.to_token_stream()
}

/// The path of the trait that gives the zero derivative of a callee's parameter `i` from its
/// value: `m::my_fn` -> `m::MyFnZero1` (`crate::contract::zero_traits`).
pub fn zero_path(path: &syn::Path, i: usize) -> TokenStream {
    let mut p = path.clone();
    if let Some(last) = p.segments.last_mut() {
        last.ident = zero_name(&last.ident, i);
        last.arguments = syn::PathArguments::None;
    }
    p.to_token_stream()
}

/// `my_fn`, 1 -> `MyFnZero1`.
pub fn zero_name(ident: &Ident, i: usize) -> Ident {
    Ident::new(&format!("{}Zero{i}", camel(ident)), ident.span())
}

/// The contract trait's name: `my_fn` -> `MyFnCall`.
pub fn contract_name(ident: &Ident) -> Ident {
    Ident::new(&format!("{}Call", camel(ident)), ident.span())
}

pub struct Names {
    used: HashSet<String>,
}

impl Names {
    pub fn new(reserved: &[&str]) -> Self {
        Names {
            used: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A fresh hygienic identifier: it can never collide with the user's names. A base made from
    /// a raw identifier (`r#ref`, `r#ref_again`) gives a raw identifier.
    pub fn fresh(&mut self, base: &str) -> Ident {
        match base.strip_prefix("r#") {
            Some(bare) => Ident::new_raw(&unique(&mut self.used, bare), Span::mixed_site()),
            None => Ident::new(&unique(&mut self.used, base), Span::mixed_site()),
        }
    }
}

/// The identifiers of a token stream, as text.
pub fn identifiers(tokens: TokenStream) -> HashSet<String> {
    occurrences(&tokens).into_keys().collect()
}

/// How many times a token stream names each identifier.
pub fn occurrences(tokens: &TokenStream) -> std::collections::HashMap<String, usize> {
    fn walk(tokens: TokenStream, out: &mut std::collections::HashMap<String, usize>) {
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Ident(i) => *out.entry(i.to_string()).or_default() += 1,
                proc_macro2::TokenTree::Group(g) => walk(g.stream(), out),
                _ => {}
            }
        }
    }
    let mut out = std::collections::HashMap::new();
    walk(tokens.clone(), &mut out);
    out
}

/// A name without its raw prefix (`r#type` -> `type`), to build another name from.
pub fn bare(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}

/// `FTape` -> `FLoop0Tape` for checkpointed loop 0.
pub fn step_tape_name(tape: &Ident, l: usize) -> Ident {
    let base = tape.to_string();
    let base = base.trim_end_matches("Tape");
    Ident::new(&format!("{base}Loop{l}Tape"), tape.span())
}

/// ` (line N)` for a span whose line is known (in a compiler that reports it), else nothing.
pub fn line_of(span: Span) -> String {
    match span.start().line {
        0 => String::new(),
        n => format!(" (line {n})"),
    }
}

/// `base`, or `base_1`, `base_2`, ... whichever is not taken yet; records it as taken.
pub fn unique(used: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while used.contains(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    used.insert(name.clone());
    name
}

/// The local that holds one iteration's tape of checkpointed loop `l` in the reverse sweep.
pub fn step_ident(l: usize) -> Ident {
    Ident::new(&format!("step{l}"), Span::mixed_site())
}

/// The label of the block a re-run iteration of checkpointed loop `l` runs in (`record`), or an
/// advancing one (without recording).
pub fn rerun_label(l: usize, record: bool) -> syn::Lifetime {
    let name = if record { "rerun" } else { "advance" };
    syn::Lifetime::new(&format!("'{name}{l}"), Span::mixed_site())
}

/// Tokens as a person would write them, for doc comments.
pub fn text(t: &TokenStream) -> String {
    let s = t.to_string();
    let s = s
        .replace(" :: ", "::")
        .replace("& mut ", "&mut ")
        .replace("& ", "&")
        .replace(" . ", ".")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
        .replace("[ ", "[")
        .replace(" ]", "]");
    // `a [i]` -> `a[i]` and `f (x)` -> `f(x)`, but `= [1.0]` and `a * (b + c)` stay.
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let last = out.chars().last();
        let indexes = last.is_some_and(|p| p.is_alphanumeric() || matches!(p, '_' | ')' | ']'));
        let calls = indexes || last.is_some_and(|p| matches!(p, '!' | '>'));
        if c == ' '
            && ((chars.peek() == Some(&'[') && indexes) || (chars.peek() == Some(&'(') && calls))
        {
            continue;
        }
        out.push(c);
    }
    out
}

/// A type as [`text`] writes it, with the tape's `(K as usize)` lengths written `K`, as the
/// user wrote the bound.
pub fn type_text(t: &TokenStream) -> String {
    fn uncast(t: &TokenStream) -> TokenStream {
        (t.clone().into_iter())
            .map(|tt| match tt {
                proc_macro2::TokenTree::Group(g) => {
                    let inner: Vec<_> = g.stream().into_iter().collect();
                    let n = inner.len();
                    let cast = n >= 3
                        && g.delimiter() == proc_macro2::Delimiter::Parenthesis
                        && inner[n - 2].to_string() == "as"
                        && inner[n - 1].to_string() == "usize"
                        && (inner[..n - 2].iter()).all(|t| {
                            matches!(t, proc_macro2::TokenTree::Ident(_))
                                || matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == ':')
                        });
                    if cast {
                        inner[..n - 2].iter().cloned().collect::<TokenStream>()
                    } else {
                        let mut h = proc_macro2::Group::new(g.delimiter(), uncast(&g.stream()));
                        h.set_span(g.span());
                        TokenStream::from(proc_macro2::TokenTree::Group(h))
                    }
                }
                tt => TokenStream::from(tt),
            })
            .collect()
    }
    text(&uncontract(&uncast(t)))
}

/// A type named through a callee's contract, as a reader names it: `<() as GCall<..>>::Tape`
/// is `GTape`, `<() as GCall<..>>::Out` is `GCall::Out` (in `FIELDS`).
fn uncontract(t: &TokenStream) -> TokenStream {
    use proc_macro2::TokenTree as T;
    let toks: Vec<T> = t.clone().into_iter().collect();
    let punct = |t: &T, c: char| matches!(t, T::Punct(p) if p.as_char() == c);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let head = punct(&toks[i], '<')
            && matches!(toks.get(i + 1), Some(T::Group(g)) if g.stream().is_empty())
            && toks.get(i + 2).is_some_and(|t| t.to_string() == "as");
        // The matching `>`, then `::` and the associated type.
        let close = head.then(|| {
            let mut depth = 0usize;
            (i..toks.len()).find(|&j| {
                if punct(&toks[j], '<') {
                    depth += 1;
                } else if punct(&toks[j], '>') && !(j > 0 && punct(&toks[j - 1], '-')) {
                    depth -= 1;
                }
                depth == 0
            })
        });
        let found = close.flatten().and_then(|j| {
            let assoc = toks.get(j + 3)?.to_string();
            // The trait's path runs from `as` to its `<`: its last identifier.
            let path = toks[i + 3..j].iter().take_while(|t| !punct(t, '<'));
            let contract = path.filter_map(|t| match t {
                T::Ident(id) => Some(id.to_string()),
                _ => None,
            });
            let contract = contract.last().filter(|c| c.ends_with("Call"))?;
            (punct(&toks[j + 1], ':') && punct(toks.get(j + 2)?, ':'))
                .then_some((j, assoc, contract))
        });
        match found {
            Some((j, assoc, contract)) => {
                let base = contract.strip_suffix("Call").unwrap_or(&contract);
                let shown: TokenStream = if assoc == "Tape" {
                    Ident::new(&format!("{base}Tape"), Span::call_site()).to_token_stream()
                } else {
                    let c = Ident::new(&contract, Span::call_site());
                    let a = Ident::new(&assoc, Span::call_site());
                    quote::quote!(#c::#a)
                };
                out.extend(shown);
                i = j + 4;
            }
            None => {
                out.push(match &toks[i] {
                    T::Group(g) => {
                        let mut h = proc_macro2::Group::new(g.delimiter(), uncontract(&g.stream()));
                        h.set_span(g.span());
                        T::Group(h)
                    }
                    t => t.clone(),
                });
                i += 1;
            }
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::{text, type_text};

    #[test]
    fn type_text_names_a_contracts_tape_and_output_plainly() {
        let tape = quote!([<() as m::AffineCall<[[f64; 3]; 3], [f64; 3]>>::Tape; 2]);
        assert_eq!(type_text(&tape), text(&quote!([AffineTape; 2])));
        let out = quote!(<() as GCall<<() as HCall<[f64; K]>>::Out, ()>>::Out);
        assert_eq!(type_text(&out), text(&quote!(GCall::Out)));
    }

    #[test]
    fn type_text_writes_casted_lengths_as_the_bound() {
        let casted = quote!([[f64; (K as usize)]; (m::N as usize)]);
        assert_eq!(type_text(&casted), text(&quote!([[f64; K]; m::N])));
        let plus = quote!([f64; ((K as usize) + 1)]);
        assert_eq!(type_text(&plus), text(&quote!([f64; (K + 1)])));
        let product = quote!([f64; (2 * N as usize)]);
        assert_eq!(type_text(&product), text(&product));
    }
}
