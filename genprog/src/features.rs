//! The constructs the generator can produce, by name, so a run can switch them on and off
//! (`--only` and `--exclude`) to isolate a construct that fails.

/// Declares [`Feature`] with the name and description of each construct.
macro_rules! features {
    ($($variant:ident $name:literal $doc:literal,)*) => {
        /// A construct of the `#[differentiable]` language the generator can produce.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Feature {
            $(#[doc = $doc] $variant,)*
        }

        impl Feature {
            pub const ALL: &[Feature] = &[$(Feature::$variant,)*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Feature::$variant => $name,)*
                }
            }

            pub fn doc(self) -> &'static str {
                match self {
                    $(Feature::$variant => $doc,)*
                }
            }
        }
    };
}

features! {
    Methods "methods" "float methods with guarded domains (`exp`, `ln`, `asin`, `powf`, `atan2`, ...)",
    Kinks "kinks" "`abs`, `signum`, `max`, `min`, `clamp`",
    Division "division" "`/` by expressions kept away from 0",
    Blocks "blocks" "block expressions `{ let t = ..; t * 2.0 }`",
    Shadowing "shadowing" "`let x = x * ..;` over an existing name",
    ClashNames "clash-names" "locals and counters named like the macro's own (`t_x`, `d_x`, `v_x` for a parameter `x`, `tape`, `d_out`, `k0`, ..)",
    Compound "compound" "`+= -= *= /=`",
    SelfRead "self-read" "updates that read their target again, `v += 0.5 * v - v * 0.25 + ..`, `v = v * v + ..`",
    IfStmt "if-stmt" "`if` / `else if` / `else` statements",
    IfExpr "if-expr" "`if` as an expression",
    CondIf "cond-if" "an `if` expression inside a condition",
    CondCall "cond-call" "a call (with `&` arguments) inside a condition",
    Logic "logic" "`&&`, `||`, `!` in conditions",
    Consts "consts" "`const` items in arithmetic and as loop bounds",
    ConstCond "const-cond" "`const` items in conditions",
    Paths "paths" "`core::$F::consts::PI`",
    IntLocals "int-locals" "integer locals and counters",
    IntCasts "int-casts" "`i as $F` from loop indices and integer locals",
    MixedCasts "mixed-casts" "casts to the other float type and back, `(x as f32).sin() as f64`",
    F32 "f32" "programs in `f32` (checked against their f64 twin)",
    LocalArrays "local-arrays" "local arrays `[x, x * x]` and `[0.0; N]`",
    Arrays2d "arrays-2d" "2-D and 3-D local arrays and 2-D parameters",
    ElemAssign "elem-assign" "element assignment `a[i] = ..`, `a[i][j] += ..`",
    ForRange "for-range" "`for i in 0..N`",
    ForInclusive "for-inclusive" "`for i in a..=b`",
    ForRev "for-rev" "`(0..N).rev()`",
    ForStep "for-step" "`(0..N).step_by(k)`",
    Triangular "triangular" "`for j in 0..i` and `0..=i`",
    Slices "slices" "slice parameters of data (`xs: &[$F]`) and loops over their run-time length (`xs.iter()`, `0..xs.len()`, `.enumerate()`, `.zip(..)`) that share only an accumulator, or carry it (recorded into `Vec`s, or under binomial checkpoints), sometimes inside a loop of independent iterations over a slice's length (`for q in 0..ys.len() { let mut acc = 0.0; for .. { acc = acc * 0.5 + .. } outer += acc * 0.5; }`)",
    Iter "iter" "`a.iter()`, sometimes `.skip(k)`, `.take(n)`, `.step_by(s)` and `.rev()` after `iter()` (also of a `zip`'s operand and `iter_mut()`) and `.rev()` last (also after `enumerate` and `zip`); now and then `a.windows(k)` or `a.chunks_exact(k)` (or `a.chunks(k)` where `k` divides a length written as a number) instead, two elements of the group (or the group summed) read into a local, or a sub-slice of constant bounds iterated, `h[1..3].iter()`, `a[2..]`, `a[..=1]`",
    Enumerate "enumerate" "`a.iter().enumerate()`, now and then with `.skip(k)`, `.take(n)` or `.step_by(s)` after it",
    Zip "zip" "`a.iter().zip(b.iter())`",
    IterMut "iter-mut" "`h.iter_mut()` on local arrays",
    Break "break" "`break` and `continue` under conditions",
    While "while" "`#[max_iters(K)] while`",
    Loop "loop" "`#[max_iters(K)] loop` with `break`",
    Checkpoint "checkpoint" "`#[checkpoint]` on `for` loops",
    Snapshots "snapshots" "`#[checkpoint(snapshots = S)]`",
    Binomial "binomial" "`#[checkpoint(snapshots = S, binomial)]`",
    Recompute "recompute" "`#[recompute] let`",
    Record "record" "`#[record(f32)] let` in f64 programs (the tape keeps the value as f32)",
    EarlyReturn "early-return" "`return` inside `if` branches",
    ArrayFns "array-fns" "`let m = a.map(|v| ..);` of an array in scope, and `let m: [$F; L] = core::array::from_fn(|i| ..);`",
    LoopExits "loop-exits" "`return` inside loops (under `if`s, with early-return), and `break 'l` / `continue 'l` of an enclosing labelled `for` from a loop inside it",
    PanicValues "panic-values" "`panic!` as a branch of an `if` used as a value, on a bound never reached: `if a > 12.5 { panic!(..) } else { b }`, and the mirrored `else { panic!(..) }`",
    Closures "closures" "closures bound by `let` (`let c = |p: $F, q: $F| ..;`, a body of one expression or a block, reading immutable locals and parameters) and called in expressions (`c(x + 1.0, a[i])`), which the macro writes out where they are called",
    Rearrange "rearrange" "local arrays rearranged in place: `h.swap(i, j)` (also of a 2-D array's rows, and within a row at an index that may be computed: `h[i].swap(j, k)`, `h[i].reverse()`), `h.reverse()`, `h.fill(..)`, `core::mem::swap(&mut h, &mut g)` of two arrays of one shape",
    Calls "calls" "calls to other `#[differentiable]` functions",
    ArrayCalls "array-calls" "callees returning arrays, `let y: [$F; 3] = g(..)`",
    StructCalls "struct-calls" "callees taking the struct",
    PathCalls "path-calls" "callees in a module, `inner::g(x)`, `super::g(x)`",
    GenericCalls "generic-calls" "const-generic callees, `g::<N>(a, b)`",
    ContractCalls "contract-calls" "calls through the callee contract: a const-generic callee without its constants named, `g(a, b)`, and an array result bound without a type, `let y = g(..);` (read by index, by reference, iterated, passed by value through a contract)",
    GenericFn "generic-fn" "a const-generic function under test",
    Wrt "wrt" "`#[differentiable(wrt(..))]` on the function under test",
    WrtCalls "wrt-calls" "helpers declared `#[differentiable(wrt(..))]` that leave out some of their float parameters, called without their constants named (through the slot forwarders, also beside a struct field or a `const` item; under `hvp` too) with a literal in each parameter left out",
    Structs "structs" "struct parameters `p: &S` with float and array fields",
    IndexTables "index-tables" "`idx: &[usize; N]` tables, `a[idx[t]]`",
    UsizeParams "usize-params" "`n: usize` parameters used as indices",
    ByValue "by-value" "arrays taken by value",
    ByValueCalls "by-value-calls" "callees taking an array by value, passed `*a`, `h` or `p.w`",
    ArrayReturn "array-return" "functions returning `[$F; N]`",
    TupleReturn "tuple-return" "functions returning `($F, $F)`",
    Reductions "reductions" "iterator reductions, `a.iter().map(|v| ..).sum::<$F>()`, `fold`, `product`, `zip`",
    Match "match" "`match` on loop indices and bools as a value, with or-patterns, ranges and `_`; a float bound by name only (`val if val > 0.25 => ..`)",
    TupleMatch "tuple-match" "with `match`, a `match` on a tuple written out, `match (i % 3, c) { (0, true) => .., (1 | 2, _) | (_, false) => .. }`, a float element bound by name, `..`, the enum",
    ConstBounds "const-bounds" "loop bounds that are constant expressions, `0..N / 2`, `(N + 1) / 2`, `0..N - 1`",
    FnPaths "fn-paths" "float methods called by path, `$F::max(x, y)`, `$F::sqrt(x)`, `$F::sin(x)`",
    ConstArrays "const-arrays" "`const` float arrays read by index, `T0[i]`, `T1[i][j]`",
    MethodCalls "method-calls" "with `impl-methods`, the helpers that take the struct also as methods of the same `impl S`, which the methods call as `self.g_m(..)` (one method calling another, through the known callees' plumbing)",
    ImplMethods "impl-methods" "the function under test also as a method of `S` (`#[differentiable(hvp)] impl S`), its gradient, tangent and `H v` equal bit for bit to the free function's",
    EnumParams "enum-params" "a fieldless enum parameter `mode: E` read by `match mode { E::A => .., _ => .. }`",
    EnumCalls "enum-calls" "helpers matching on `mode: &E`, called with the function under test's `&mode` or with its `em: &E` (also beside a struct field or a `const` item), which it only passes on (the macro takes it for a struct only passed on: differentiated by default, its zero a copy from the helper's `GZero`)",
    Elementwise "elementwise" "local arrays filled element by element from parameters, `h[i] = a[i] - x` (the reverse sweep computes them again instead of recording them)",
    Destructure "destructure" "tuple `let (a, mut b) = (.., ..);`, `let u = (.., ..);` read as `u.0` and `u.1`, and simultaneous `(a, b) = (b * 0.5, a);`",
    Patterns "patterns" "`let (s, mut c) = (..).sin_cos();`, `let t = (..).sin_cos();` read as `t.0` and `t.1`, and array patterns of arrays in scope (`let [a, _, mut b] = *v;`, `let [[a, b], [_, c]] = p.m;`, `let [a, b] = T0;`, and borrowed, `let [a, b] = v;` of a reference parameter or `let [a, b] = &p.w;`, whose names are references read as `(*a)`), and references to a row or an element (`let r = &m[1];`, read as `r[j]` or `(*r)`), which the macro rewrites into `let`s or aliases of the elements",
    Invariant "invariant" "GMM's shape: a nest inside a loop, `for i { for k { xc[d] = .. - p[k][d]; y[d] = q[k][d] * xc[d]; y[b] += p[k][b] * xc[a]; .. } }`, whose tangents are partly the same for every `i` (`f_jvp` computes that part once), with scalar accumulators, one that sums another, reads before an accumulator is complete, sometimes two nests in the loop",
    TupleCalls "tuple-calls" "helpers returning `($F, $F)`, called by the function under test as `let (a, mut b) = g(..);`, `let (_, b) = g(..);`, `let u = g(..);` read as `u.0` and `u.1`, and `g(..).1` (the function under test is then `jvp` only: a tuple-valued callee has no `hvp`)",
    Nested "nested" "a helper under `#[differentiable(nested)]` whose gradient with respect to one float parameter (`g0_grad_x(..)`) the function under test calls, differentiated again in reverse and forward mode (the reference twin calls the same gradient, so its central differences check the outer derivative)",
    VecLocals "vec-locals" "one-dimensional local arrays only ever indexed turned into `Vec`s of a run-time length, `let mut h: Vec<$F> = vec![0.0; N];` or `vec![0.0_$F; N]`",
    Bools "bools" "`bool` locals and a `flag: bool` parameter: `let b = x > 0.5;`, `let mut seen = false;` updated in loops (`seen = seen || ..`), read in conditions (`if b && ..`, `!seen`)",
}

/// The set of features a run may use.
#[derive(Clone, Debug)]
pub struct Features {
    on: Vec<bool>,
}

impl Features {
    pub fn all() -> Features {
        Features {
            on: vec![true; Feature::ALL.len()],
        }
    }

    /// Only the named features (comma-separated).
    ///
    /// # Errors
    ///
    /// An unknown name, with the list of known ones.
    pub fn only(names: &str) -> Result<Features, String> {
        let mut f = Features {
            on: vec![false; Feature::ALL.len()],
        };
        for feature in parse(names)? {
            f.on[feature as usize] = true;
        }
        Ok(f)
    }

    /// Switches the named features (comma-separated) off.
    ///
    /// # Errors
    ///
    /// An unknown name, with the list of known ones.
    pub fn exclude(mut self, names: &str) -> Result<Features, String> {
        for feature in parse(names)? {
            self.on[feature as usize] = false;
        }
        Ok(self)
    }

    pub fn has(&self, feature: Feature) -> bool {
        self.on[feature as usize]
    }
}

fn parse(names: &str) -> Result<Vec<Feature>, String> {
    names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            Feature::ALL
                .iter()
                .copied()
                .find(|f| f.name() == n)
                .ok_or_else(|| {
                    let known: Vec<_> = Feature::ALL.iter().map(|f| f.name()).collect();
                    format!("unknown feature `{n}`; known: {}", known.join(", "))
                })
        })
        .collect()
}
