//! Compile-fail tests: every rejected construct gets a clear error on the user's span.
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test --test ui` and review it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/unsupported/*.rs");
    t.compile_fail("tests/ui/args/*.rs");
    t.compile_fail("tests/ui/calls/*.rs");
    t.compile_fail("tests/ui/loops/*.rs");
    t.compile_fail("tests/ui/arrays/*.rs");
    t.compile_fail("tests/ui/methods/*.rs");
    t.compile_fail("tests/ui/record/*.rs");
}
