//! Compile-fail tests: every rejected construct gets a clear error on the user's span, from
//! `#[differentiable]` (`ui/*/`) and from `#[derive(Parameters)]` (`ui/derive/`). Regenerate
//! the expected output with `TRYBUILD=overwrite cargo test -p stackgrad-ui-tests` and review it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/unsupported/*.rs");
    t.compile_fail("ui/args/*.rs");
    t.compile_fail("ui/calls/*.rs");
    t.compile_fail("ui/loops/*.rs");
    t.compile_fail("ui/arrays/*.rs");
    t.compile_fail("ui/closures/*.rs");
    t.compile_fail("ui/methods/*.rs");
    t.compile_fail("ui/record/*.rs");
    t.compile_fail("ui/nested/*.rs");
    t.compile_fail("ui/jacobian/*.rs");
    t.compile_fail("ui/vecs/*.rs");
    t.compile_fail("ui/slices/*.rs");
    t.compile_fail("ui/derive/*.rs");
}
