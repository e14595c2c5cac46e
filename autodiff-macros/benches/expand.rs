//! How long the macro takes to expand a large function: 200 statements of straight-line code,
//! and the same inside a loop. The pipeline is compiled here from its sources (a proc-macro crate
//! exports only its macros). `cargo bench -p autodiff-macros --bench expand`.

// The included modules' own unit tests are compiled when clippy checks this target as a test,
// but a `harness = false` target never runs them: their imports and helpers look unused there.
#![cfg_attr(test, allow(unused_imports, dead_code))]

#[path = "../src/affine.rs"]
mod affine;
#[path = "../src/analysis.rs"]
mod analysis;
#[path = "../src/args.rs"]
mod args;
#[path = "../src/attrs.rs"]
mod attrs;
#[path = "../src/contract.rs"]
mod contract;
#[path = "../src/expand.rs"]
mod expand;
#[path = "../src/forward/mod.rs"]
mod forward;
#[path = "../src/fused.rs"]
mod fused;
#[path = "../src/hvp.rs"]
mod hvp;
#[path = "../src/ir.rs"]
mod ir;
#[path = "../src/items/mod.rs"]
mod items;
#[path = "../src/jacobian.rs"]
mod jacobian;
#[path = "../src/jacobian_tuple.rs"]
mod jacobian_tuple;
#[path = "../src/lower/mod.rs"]
mod lower;
#[path = "../src/methods.rs"]
mod methods;
#[path = "../src/names.rs"]
mod names;
#[path = "../src/nested.rs"]
mod nested;
#[path = "../src/plan.rs"]
mod plan;
#[path = "../src/print.rs"]
mod print;
#[path = "../src/reverse/mod.rs"]
mod reverse;
#[path = "../src/rules.rs"]
mod rules;
#[path = "../src/tangent/mod.rs"]
mod tangent;
#[path = "../src/tape.rs"]
mod tape;
#[path = "../src/types.rs"]
mod types;
#[path = "../src/walk.rs"]
mod walk;

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `n` statements, each a few operations on the previous values, cycling through methods.
fn statements(n: usize) -> Vec<TokenStream> {
    let methods = [
        quote!(sin),
        quote!(exp),
        quote!(tanh),
        quote!(sqrt),
        quote!(cos),
    ];
    (0..n)
        .map(|i| {
            let v = format_ident!("v{}", i + 2);
            let (a, b) = (format_ident!("v{}", i + 1), format_ident!("v{}", i));
            let m = &methods[i % methods.len()];
            quote!(let #v = (#a * #b + 0.5).abs().#m() / (1.0 + #a * #a);)
        })
        .collect()
}

fn straight_line(n: usize) -> TokenStream {
    let body = statements(n);
    let last = format_ident!("v{}", n + 1);
    quote! {
        pub fn big(x: f64, y: f64) -> f64 {
            let v0 = x;
            let v1 = y;
            #(#body)*
            #last
        }
    }
}

fn in_a_loop(n: usize) -> TokenStream {
    let body = statements(n);
    let last = format_ident!("v{}", n + 1);
    quote! {
        pub fn big_loop(x: &[f64; 16], y: f64) -> f64 {
            let mut acc = y;
            for t in 0..16 {
                let v0 = x[t];
                let v1 = acc;
                #(#body)*
                acc = #last;
            }
            acc
        }
    }
}

fn expand_200_statements(c: &mut Criterion) {
    let mut group = c.benchmark_group("expand");
    for (name, item) in [
        ("expand_straight_200", straight_line(200)),
        ("expand_loop_200", in_a_loop(200)),
    ] {
        let out = expand::expand(TokenStream::new(), item.clone());
        assert!(
            !out.to_string().contains("compile_error"),
            "{name} did not expand cleanly"
        );
        group.bench_function(name, |b| {
            b.iter(|| expand::expand(TokenStream::new(), black_box(item.clone())))
        });
    }
    group.finish();
}

criterion_group!(benches, expand_200_statements);
criterion_main!(benches);
