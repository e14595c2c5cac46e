//! Unit tests of the lowering: kinds and types, loops and their trip bounds, errors.
use super::*;
use syn::parse_quote;

fn lower_with(attr: TokenStream, item: syn::ItemFn) -> syn::Result<Func> {
    let args = crate::args::parse(attr).expect("valid arguments");
    lower(&item, &args)
}

fn lowered(item: syn::ItemFn) -> Func {
    match lower_with(TokenStream::new(), item) {
        Ok(f) => f,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn errors(attr: TokenStream, item: syn::ItemFn) -> Vec<String> {
    match lower_with(attr, item) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
    }
}

fn param_kinds(f: &Func) -> Vec<Kind> {
    f.params
        .iter()
        .map(|&v| f.types.kind(f.vars[v].ty))
        .collect()
}

fn trips(f: &Func) -> Vec<String> {
    f.loops.iter().map(|l| l.trips.to_string()).collect()
}

#[test]
fn parameters_kinds_and_wrt() {
    let item: syn::ItemFn = parse_quote! {
        fn f(x: f64, a: &[f32; 3], p: &Params, n: usize, b: bool) -> f64 { x }
    };
    let f = lowered(item.clone());
    assert_eq!(
        param_kinds(&f),
        [
            Kind::Float,
            Kind::Array,
            Kind::Struct,
            Kind::Int,
            Kind::Bool
        ]
    );
    assert_eq!(f.wrt, [0, 1, 2], "every float parameter by default");
    let by_ref: Vec<bool> = f.params.iter().map(|&v| f.vars[v].by_ref).collect();
    assert_eq!(by_ref, [false, true, true, false, false]);
    assert_eq!((f.ret.len(), f.ret_tuple), (1, false));

    let f = lower_with(quote!(wrt(p, x)), item).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(f.wrt, [0, 2], "`wrt(..)` in parameter order");
}

#[test]
fn an_indexed_named_type_gets_one_error_about_type_aliases() {
    let e = errors(
        quote!(),
        parse_quote! {
            fn f(x: &Vec3) -> f64 { x[0] * x[1] + x[2] }
        },
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("`Vec3` is taken for a struct") && e[0].contains("type alias"));
    let e = errors(quote!(), parse_quote! { fn g(x: f64) -> Vec3 { x } });
    assert!(e.iter().any(|m| m.contains("not type aliases")), "{e:?}");
}

#[test]
fn mut_parameters_shadowing_and_tuple_returns() {
    let f = lowered(parse_quote! {
        fn f(mut x: f64, y: f64) -> (f64, f64) {
            x = x * y;
            let z = x + 1.0;
            let z = z * 2.0;
            (x, z)
        }
    });
    assert_eq!(f.params.len(), 2);
    assert_eq!(f.param_copies.len(), 1);
    let (param, local) = f.param_copies[0];
    assert!(!f.vars[param].mutable && f.vars[local].mutable);
    let emitted: Vec<String> = f.vars.iter().map(|v| v.emit.to_string()).collect();
    assert_eq!(emitted, ["x", "x_1", "y", "z", "z_1"]);
    assert_eq!((f.ret.len(), f.ret_tuple), (2, true));
    assert_eq!(f.body.tail.len(), 2);
}

#[test]
fn a_for_loop_is_one_counted_loop_with_a_compile_time_bound() {
    let f = lowered(parse_quote! {
        fn f<const N: usize>(a: &[f64; N]) -> f64 {
            let mut s = 0.0;
            for i in 0..N {
                s += a[i];
            }
            s
        }
    });
    assert_eq!(trips(&f), ["N"]);
    assert!(f.loops[0].trips_generic && !f.loops[0].breaks);
    let fors = f.body.stmts.iter();
    let fors = fors.filter(|s| matches!(s, Stmt::For { .. })).count();
    assert_eq!(fors, 1);
}

#[test]
fn trip_bounds_of_ranges_steps_nests_and_iterators() {
    let f = lowered(parse_quote! {
        fn f(x: f64, a: &[f64; 5]) -> f64 {
            let mut s = x;
            for i in 2..=7 {
                for j in 0..i {
                    s += x;
                }
            }
            for k in (0..10).step_by(3).rev() {
                s += x;
            }
            for (i, y) in a.iter().enumerate() {
                s += *y;
            }
            s
        }
    });
    // `2..=7`: 6 trips; `0..i`: at most 7; `0..10` by 3: 4; `a.iter()`: 5.
    assert_eq!(trips(&f), ["6", "7", "4", "5"]);
    assert_eq!(f.loops[1].nest, [0], "the inner loop knows its outer loop");
}

/// The float type of each call's result, in program order.
fn call_types(f: &Func) -> Vec<String> {
    fn walk(b: &Block, f: &Func, out: &mut Vec<String>) {
        for s in &b.stmts {
            match s {
                Stmt::Def {
                    target,
                    rhs: Rhs::Call { .. },
                    ..
                } => out.push(f.types.tokens(f.target_ty(*target)).to_string()),
                Stmt::If { then, els, .. } => {
                    walk(then, f, out);
                    walk(els, f, out);
                }
                Stmt::For { body, .. } => walk(body, f, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&f.body, f, &mut out);
    out
}

#[test]
fn open_call_types_take_their_arguments_or_the_functions_float_type() {
    // `h(K, x)`: from `x`; `g(K)`: no float of the call is typed, so the function's f32,
    // not the `f64` the cast around it would suggest.
    let f = lowered(parse_quote! {
        fn f(x: f32) -> f32 {
            h(K, x) * ((g(K) * 0.33) as f64 as f32)
        }
    });
    assert_eq!(call_types(&f), ["f32", "f32"]);
    // Parameters of two float types: no guess; rustc's default.
    let f = lowered(parse_quote! {
        fn f(x: f32, y: f64) -> f64 {
            (x * g(K)) as f64 * y
        }
    });
    assert_eq!(call_types(&f), ["f32"], "from the product with `x`");
    let f = lowered(parse_quote! {
        fn f(x: f32, y: f64) -> f64 {
            x as f64 * y * g(K) as f64
        }
    });
    assert_eq!(call_types(&f), ["f64"]);
}

#[test]
fn bounds_from_outer_variables_are_taken_where_each_loop_begins() {
    // A step that reads a loop variable: the most trips come with its smallest value.
    let f = lowered(parse_quote! {
        fn f(x: &[f64; 6]) -> f64 {
            let mut s = 0.0;
            for i in 0..3 {
                for j in (0..6).step_by(i + 1) {
                    s += x[j];
                }
            }
            s
        }
    });
    assert_eq!(trips(&f), ["3", "6"]);
    // `j < i <= 5`, whatever the `i` of the loop between them: `k` runs at most 4 times.
    let f = lowered(parse_quote! {
        fn f(x: &[f64; 6]) -> f64 {
            let mut s = 0.0;
            for i in 0..6 {
                for j in 0..i {
                    for i in 0..2 {
                        for k in 0..j {
                            s += x[k] * x[i];
                        }
                    }
                }
            }
            s
        }
    });
    assert_eq!(trips(&f), ["6", "5", "2", "4"]);
}

#[test]
fn a_zip_runs_as_many_trips_as_its_shorter_array() {
    let f = lowered(parse_quote! {
        fn f<const N: usize>(a: &[f64; 8], b: &[f64; 3], c: &[f64; N]) -> f64 {
            let mut s = 0.0;
            for (x, y) in a.iter().zip(b.iter()) {
                s += x * y;
            }
            for (x, y) in c.iter().zip(c.iter()) {
                s += x * y;
            }
            for (x, y) in c.iter().zip(b.iter()) {
                s += x * y;
            }
            s
        }
    });
    // `N` and `3`: at most 3 trips, and the loop stops at the shorter.
    assert_eq!(trips(&f), ["3", "N", "3"]);
    let ends: Vec<String> = f
        .body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::For {
                range: Range {
                    end: Pure::Lit(t), ..
                },
                ..
            } => Some(t.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(ends, ["3", "N", ":: core :: cmp :: min (N , 3)"]);
    // Other spellings of the minimum in a range's end.
    let f = lowered(parse_quote! {
        fn f<const N: usize>(a: &[f64; N]) -> f64 {
            let mut s = 0.0;
            for i in 0..usize::min(N, 3) {
                s += a[i];
            }
            for i in 0..N.min(2) {
                s += a[i];
            }
            s
        }
    });
    assert_eq!(trips(&f), ["3", "2"]);
}

#[test]
fn a_bounded_while_loop_has_one_more_trip_than_its_bound() {
    let f = lowered(parse_quote! {
        fn f(x: f64) -> f64 {
            let mut y = x;
            #[max_iters(8)]
            while y > 1.0 {
                y = y * 0.5;
            }
            y
        }
    });
    assert_eq!(trips(&f), ["9"]);
    assert!(f.loops[0].breaks, "its trip count is recorded");
}

#[test]
fn unsupported_constructs_are_errors_that_say_what_to_write() {
    let e = errors(
        TokenStream::new(),
        parse_quote! {
            fn f(x: f64, n: usize) -> f64 {
                match n { Some(k) => x * k as f64, _ => x }
            }
        },
    );
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("not supported in a `match`"), "{e:?}");
    assert!(e[0].contains("bind the whole value (`n => ..`"), "{e:?}");

    let e = errors(
        TokenStream::new(),
        parse_quote! {
            fn f(x: f64) -> f64 {
                let mut y = x;
                while y > 1.0 {
                    y = y * 0.5;
                }
                y
            }
        },
    );
    assert!(e[0].contains("needs a bound"), "{e:?}");
}

#[test]
fn scalars_are_taken_by_value_and_structs_by_reference() {
    let e = errors(
        TokenStream::new(),
        parse_quote! {
            fn f(x: &f64, p: Params) -> f64 { 1.0 }
        },
    );
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].contains("is not supported; use `f32` or `f64`"),
        "{e:?}"
    );
    assert!(
        e[1].contains("take the struct by reference: `p: &Params`"),
        "{e:?}"
    );
}

#[test]
fn every_error_is_reported_at_once() {
    let e = errors(
        quote!(wrt(n), max_iters(missing = 3)),
        parse_quote! {
            async fn f(x: f64, v: Vec<f64>, n: usize) -> f64 {
                x
            }
        },
    );
    assert_eq!(e.len(), 4, "{e:?}");
    assert!(e[0].contains("`async fn`"), "{e:?}");
    assert!(e[1].contains("`Vec` is not supported"), "{e:?}");
    assert!(e[2].contains("`n` is not a float parameter"), "{e:?}");
    assert!(e[3].contains("labelled `'missing`"), "{e:?}");
}
