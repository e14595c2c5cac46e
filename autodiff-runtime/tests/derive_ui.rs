//! Compile-fail tests for `#[derive(Parameters)]`: each error names the offending syntax and
//! points at it. Regenerate the `.stderr` files with `TRYBUILD=overwrite` and review the diff.

#[test]
fn derive_errors() {
    trybuild::TestCases::new().compile_fail("tests/ui/derive/*.rs");
}
