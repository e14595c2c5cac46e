//! Compile-fail tests of what needs the `alloc` feature, which this crate's dependency on the
//! macro leaves off. Regenerate with `TRYBUILD=overwrite cargo test --test ui` and review.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
