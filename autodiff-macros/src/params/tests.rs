//! Unit tests of the `Parameters` derive: a golden expansion (`net.expanded.rs`) and every
//! error the derive reports.

use super::*;

fn pretty(tokens: TokenStream) -> String {
    prettyplease::unparse(&syn::parse2(tokens).expect("derive output parses as a file"))
}

/// The messages of the errors the derive reports for `input`, in order.
fn errors(input: TokenStream) -> Vec<String> {
    let out = derive(input).to_string();
    assert!(
        !out.contains("automatically_derived"),
        "errors and an impl: {out}"
    );
    out.split("compile_error !")
        .skip(1)
        .map(|e| e.split('"').nth(1).unwrap_or_default().to_string())
        .collect()
}

/// Golden expansion: review a diff here like a code change.
#[test]
fn expansion_of_a_generic_struct_with_an_array_of_structs() {
    let out = derive(quote! {
        #[parameters(crate = "rt")]
        struct Net<F, const N: usize> { w: [F; N], heads: [[Head<F>; 2]; 3] }
    });
    let want = include_str!("net.expanded.rs");
    let got = pretty(out);
    assert!(got == want, "expansion changed; new expansion:\n{got}");
}

#[test]
fn default_path_is_the_facade_and_scalar_comes_from_a_nested_struct() {
    let out = pretty(derive(quote!(
        struct Outer {
            a: Inner,
            b: [Inner; 2],
        }
    )));
    assert!(
        out.contains("impl ::stackgrad::runtime::Parameters for Outer {"),
        "{out}"
    );
    assert!(
        out.contains("type Scalar = <Inner as ::stackgrad::runtime::Parameters>::Scalar;"),
        "{out}"
    );
    // Not generic: no bounds (they could name private types in a public impl).
    assert!(!out.contains("where"), "{out}");
}

#[test]
fn default_is_implemented_unless_no_default() {
    let with = pretty(derive(quote!(
        struct Mlp<const H: usize> {
            w: [[f32; H]; 40],
        }
    )));
    assert!(
        with.contains(
            "impl<const H: usize> ::core::default::Default for Mlp<H> {\n    fn default() -> Self {\n        <Self as ::stackgrad::runtime::Parameters>::zeroed()"
        ),
        "{with}"
    );
    let without = pretty(derive(quote!(
        #[parameters(no_default)]
        struct Mlp<const H: usize> {
            w: [[f32; H]; 40],
        }
    )));
    assert!(without.contains("Parameters for Mlp<H>"), "{without}");
    assert!(!without.contains("Default"), "{without}");
}

#[test]
fn unsupported_field_types_are_all_reported() {
    let msgs = errors(quote! {
        struct Bad { a: [Vec<f32>; 2], b: &'static [f32], c: (f32, f32), d: usize, ok: f32 }
    });
    let types = ["Vec<f32>", "&'static [f32]", "(f32, f32)", "usize"];
    assert_eq!(msgs.len(), types.len(), "{msgs:?}");
    for (msg, ty) in msgs.iter().zip(types) {
        assert!(
            msg.starts_with(&format!(
                "unsupported field type `{ty}`: `#[derive(Parameters)]` supports"
            )),
            "{msg}"
        );
        assert!(msg.contains("#[parameters(skip)]"), "{msg}");
    }
}

#[test]
fn mixed_float_types_are_an_error() {
    let msgs = errors(quote!(
        struct Mixed {
            w: [f32; 2],
            b: f64,
        }
    ));
    assert_eq!(
        msgs,
        ["all float fields must have one type: `w` is `f32`, this is `f64`"]
    );
}

#[test]
fn shapes_other_than_a_struct_with_named_fields_are_errors() {
    assert!(
        errors(quote!(
            enum E {
                A(f32),
            }
        ))[0]
            .contains("applies to structs, not enums")
    );
    assert!(errors(quote!(union U { a: f32 }))[0].contains("applies to structs, not unions"));
    assert!(
        errors(quote!(
            struct T(f32, f32);
        ))[0]
            .contains("needs named fields")
    );
    assert!(
        errors(quote!(
            struct E {}
        ))[0]
            .contains("needs at least one parameter field")
    );
    let skipped_only = quote!(
        struct S {
            #[parameters(skip)]
            x: u8,
        }
    );
    assert!(errors(skipped_only)[0].contains("needs at least one parameter field"));
}

#[test]
fn attribute_mistakes_are_errors() {
    let msgs = errors(quote! {
        #[parameters(krate = "x")]
        struct A { #[parameters(skp)] w: f32 }
    });
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs[0].starts_with("unknown `parameters` option; expected `#[parameters(crate"),
        "{msgs:?}"
    );
    let raw = derive(quote!(
        #[parameters(krate = "x")]
        struct A {
            w: f32,
        }
    ))
    .to_string();
    assert!(raw.contains("or `#[parameters(no_default)]`"), "{raw}");
    assert!(
        msgs[1].starts_with("unknown `parameters` option on a field"),
        "{msgs:?}"
    );
    assert!(
        errors(quote!(
            #[parameters(crate = "not a path")]
            struct A {
                w: f32,
            }
        ))[0]
            .contains("expected")
    );
}
