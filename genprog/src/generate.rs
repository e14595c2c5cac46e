//! The generator: from a seed, a program of the documented language whose values stay moderate
//! (every float carries a rough bound on its magnitude, and large ones are scaled down before they
//! are combined) and whose non-smooth points are only hit by chance.

use crate::ast::{Checkpoint, Const, Float, Func, Len, Param, Program, Stmt, Ty};
use crate::features::{Feature, Features};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The most statements in one function under test (helpers get fewer).
const TOP_BUDGET: usize = 22;
const HELPER_BUDGET: usize = 7;
/// Nesting of blocks (if, loops).
const MAX_NESTING: usize = 3;
/// Expressions above this magnitude are scaled down before they are combined.
const TAME: f64 = 4.0;
/// The magnitude every function assumes of its float parameters (and array elements): the
/// inputs' range, [-1.5, 1.5]. A call's arguments are scaled into it, so that a callee's
/// `panic!` guards, set from that assumption, hold for every value a caller passes.
const PARAM_MAG: f64 = 1.5;

/// A float expression as text, with a bound on its magnitude over the input range.
#[derive(Clone, Debug)]
struct Ex {
    s: String,
    mag: f64,
    /// Whether the expression has a type of its own (names a variable, a constant or a cast);
    /// one made of literals only is `{float}` and cannot receive a method call.
    typed: bool,
}

impl Ex {
    fn new(s: String, mag: f64) -> Ex {
        Ex {
            s,
            mag,
            typed: true,
        }
    }

    /// An expression built from `parts`: typed if any part is.
    fn from(s: String, mag: f64, parts: &[&Ex]) -> Ex {
        Ex {
            s,
            mag,
            typed: parts.iter().any(|p| p.typed),
        }
    }
}

#[derive(Clone, Debug)]
enum Kind {
    /// A float, read by name.
    Float,
    /// An element of `iter()` (`&$F`), read as `(*v)`.
    Elem,
    /// An element of `iter_mut()`, read as `(*v)` and assigned as `*v`.
    ElemMut,
    /// A `usize` in `0..=max` (a loop index or a `usize` parameter).
    Index(usize),
    /// An integer counter (`let mut c = 0;`), not an index.
    Counter,
    /// A float array; `by_ref` when the name is already a reference (a parameter).
    Array { dims: Vec<Len>, by_ref: bool },
    /// The struct parameter (a reference).
    Struct,
    /// An index table: `len` entries, each below `bound`.
    Table { len: usize, bound: usize },
    /// The fieldless enum parameter `mode: E` (in a helper, `mode: &E`).
    Enum,
    /// The function under test's `em: &E`, only passed on to helpers.
    PassedEnum,
    /// A `bool` local or the parameter `flag: bool`.
    Bool,
    /// A slice parameter of data, `len` values the harness fixes.
    Slice { len: usize },
    /// A closure of `arity` float parameters (each within `TAME`) returning a float of the
    /// variable's magnitude; `captures`: the names its body reads, which may not be bound
    /// again while it is in scope.
    Closure { arity: usize, captures: Vec<String> },
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    kind: Kind,
    mutable: bool,
    mag: f64,
    /// The loop depth it was declared at: assignments from deeper loops repeat.
    depth: usize,
}

/// An array that can be read, passed or iterated: a variable or a struct field.
#[derive(Clone, Debug)]
struct ArraySrc {
    /// How an element is read: `a`, `p.w`.
    text: String,
    /// How it is passed by reference: `a` (already a reference), `&h`, `&p.w`.
    arg: String,
    dims: Vec<Len>,
    mag: f64,
    /// The scope slot of a mutable local array.
    slot: Option<usize>,
    /// A struct field: its length is not visible to the macro, so it is not iterated.
    field: bool,
}

/// A function's signature, for calls.
#[derive(Clone, Debug)]
struct Callee {
    name: String,
    inner: bool,
    generic: bool,
    params: Vec<Param>,
    ret: Ty,
    /// Declared `nested`: the function under test may call its `_grad_<param>` items.
    nested: bool,
    /// `wrt(..)`: the parameters it differentiates, when not all of them (its callers pass a
    /// literal to each float parameter left out).
    wrt: Option<Vec<String>>,
}

/// Names of locals the macro's generated code binds (`clash-names`).
const MACRO_NAMES: [&str; 20] = [
    "tape",
    "d_out",
    "out",
    "value",
    "k0",
    "i0",
    "r",
    "t_r",
    "pair",
    "zero",
    "start",
    "trips",
    "segment",
    "slot",
    "len",
    "iteration",
    "states",
    "i",
    "_i",
    "d",
];

pub struct Gen<'a> {
    rng: SmallRng,
    /// The `nested` feature's own draws, so that the other features' programs stay those of
    /// the runs before it.
    side: SmallRng,
    /// Generating the function under test, and whether it calls a `nested` helper's gradient.
    in_top: bool,
    calls_nested: bool,
    /// The function being generated calls a helper (a `nested` helper calls none: the twin
    /// compiles it with the macro, and its callees would need the macro too).
    called: bool,
    /// The last call's arrays are all locals and parameters (no `const` item or struct field
    /// passed whole): the callee's contract can be named from their types.
    seen_args: bool,
    /// The locals bound without a type to an array a call returns: never passed by value.
    untyped: Vec<String>,
    on: &'a Features,
    used: Vec<Feature>,
    float: Float,
    mixed: bool,
    /// Array lengths the program's arrays share (so calls type-check).
    lens: Vec<Len>,
    consts: Vec<Const>,
    float_consts: Vec<(String, f64)>,
    /// The function under test takes `mode: E`.
    enum_param: bool,
    /// Some function takes the enum (`E` is declared).
    uses_enum: bool,
    /// `const` float arrays: name, dimensions, largest magnitude.
    const_arrays: Vec<(String, Vec<Len>, f64)>,
    fields: Vec<(String, Ty)>,
    callees: Vec<Callee>,
    fresh: usize,
    /// Names the macro gives its own locals, not yet taken in this function (`clash-names`).
    clash: Vec<String>,
    // The function being generated.
    scope: Vec<Var>,
    inner: bool,
    loops: usize,
    trips: f64,
    loop_trips: Vec<f64>,
    /// The label of each loop around, innermost last (`None` for most).
    labels: Vec<Option<String>>,
    nesting: usize,
    checkpointed: bool,
    /// Arrays iterated by reference here: not assignable.
    frozen: Vec<String>,
    /// Arrays iterated mutably here: not readable.
    hidden: Vec<String>,
    immutable_only: bool,
    /// Inside a condition (no block expressions there).
    in_cond: usize,
    budget: usize,
    ret: Ty,
    /// The local array an array-valued function returns.
    out_array: Option<String>,
}

/// Generates program `index` of the run seeded with `seed`.
pub fn program(seed: u64, index: usize, on: &Features) -> (Program, Vec<Feature>) {
    let rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    let side = SmallRng::seed_from_u64(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ index as u64);
    let mut g = Gen {
        rng,
        side,
        in_top: false,
        calls_nested: false,
        called: false,
        on,
        used: Vec::new(),
        float: Float::F64,
        mixed: false,
        lens: Vec::new(),
        consts: Vec::new(),
        float_consts: Vec::new(),
        const_arrays: Vec::new(),
        enum_param: false,
        uses_enum: false,
        fields: Vec::new(),
        callees: Vec::new(),
        seen_args: false,
        untyped: Vec::new(),
        fresh: 0,
        clash: Vec::new(),
        scope: Vec::new(),
        inner: false,
        loops: 0,
        trips: 1.0,
        loop_trips: Vec::new(),
        labels: Vec::new(),
        nesting: 0,
        checkpointed: false,
        frozen: Vec::new(),
        hidden: Vec::new(),
        immutable_only: false,
        in_cond: 0,
        budget: 0,
        ret: Ty::Float,
        out_array: None,
    };
    let program = g.program(format!("p{index:03}"));
    let mut used = g.used;
    used.sort();
    used.dedup();
    (program, used)
}

impl Gen<'_> {
    /// With probability `p`, if `feature` is on (and then records it as used).
    /// Whether a `let` of an f64 program records its value as `f32` (`#[record(f32)]`): a
    /// rounding of relative size 2^-24 in the gradient, well inside the comparison's tolerance.
    /// f32 programs never draw it (bfloat16's 2^-9 is not).
    fn record(&mut self) -> bool {
        self.float == Float::F64 && self.p(Feature::Record, 0.25)
    }

    fn p(&mut self, feature: Feature, p: f64) -> bool {
        if self.on.has(feature) && self.rng.gen_bool(p) {
            self.used.push(feature);
            true
        } else {
            false
        }
    }

    /// Now and then `.rev()`, the last adapter of an `iter()` loop: the same elements, backwards.
    fn rev(&mut self) -> &'static str {
        if self.side.gen_bool(0.25) {
            ".rev()"
        } else {
            ""
        }
    }

    /// Now and then `.skip(k)`, `.take(n)` or both, right after `iter()` over `len` elements
    /// (`k` and `n` literals, at times past the end): fewer of them, from further on; now and
    /// then `.step_by(s)` after them, or `.rev()`, at times with `.skip(k)` or `.take(n)`
    /// after it. The loop's bounds stay those of all `len` (an upper
    /// bound).
    fn window(&mut self, len: usize) -> String {
        let window = match self.side.gen_range(0..10) {
            0 => format!(".skip({})", self.side.gen_range(0..=len + 1)),
            1 => format!(".take({})", self.side.gen_range(0..=len + 1)),
            2 => {
                let k = self.side.gen_range(0..=len);
                format!(".skip({k}).take({})", self.side.gen_range(0..=len))
            }
            _ => String::new(),
        };
        // Now and then every `s`-th of them (then not reversed: `.rev()` after `.step_by`
        // is refused before `enumerate` or in a `zip`).
        if self.side.gen_bool(0.1) {
            return window + &format!(".step_by({})", self.side.gen_range(1..=3));
        }
        // Now and then the array's elements last first (before `enumerate` or in a `zip`),
        // and at times the last `k` of them left out or `n` of them kept.
        if !self.side.gen_bool(0.15) {
            return window;
        }
        let back = match self.side.gen_range(0..4) {
            0 => format!(".skip({})", self.side.gen_range(0..=len + 1)),
            1 => format!(".take({})", self.side.gen_range(0..=len + 1)),
            _ => String::new(),
        };
        window + ".rev()" + &back
    }

    /// Whether a `return` may go here: outside loops, or now and then (`loop-exits`) in one.
    fn return_here(&mut self) -> bool {
        self.loops == 0 || (self.on.has(Feature::LoopExits) && self.side.gen_bool(0.5))
    }

    /// Now and then (`loop-exits`), the label of a labelled loop around the innermost one,
    /// which a `break` or `continue` then leaves.
    fn outer_label(&mut self) -> Option<String> {
        let (_, around) = self.labels.split_last()?;
        let labelled: Vec<String> = around.iter().flatten().cloned().collect();
        if labelled.is_empty() || !self.side.gen_bool(0.8) {
            return None;
        }
        self.used.push(Feature::LoopExits);
        labelled.choose(&mut self.side).cloned()
    }

    fn coin(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p)
    }

    /// A new local's name: `prefix` and a number, or now and then (`clash-names`) a name the
    /// macro uses for its own locals, once per function (the shadowing feature may bind it again).
    fn fresh(&mut self, prefix: &str) -> String {
        if !self.clash.is_empty() && self.p(Feature::ClashNames, 0.1) {
            let k = self.rng.gen_range(0..self.clash.len());
            return self.clash.swap_remove(k);
        }
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn program(&mut self, name: String) -> Program {
        if self.p(Feature::F32, 0.3) {
            self.float = Float::F32;
        }
        let n_lens = self.rng.gen_range(1..=2);
        for _ in 0..n_lens {
            let n = self.rng.gen_range(2..=5);
            let len = if self.p(Feature::Consts, 0.4) {
                let c = format!("N{}", self.consts.len());
                self.consts.push(Const {
                    name: c.clone(),
                    ty: "usize".into(),
                    value: n.to_string(),
                });
                Len::Named(c, n)
            } else {
                Len::Lit(n)
            };
            self.lens.push(len);
        }
        for _ in 0..self.rng.gen_range(0..=2) {
            if self.p(Feature::Consts, 0.5) {
                let c = format!("K{}", self.consts.len());
                let v = self.lit_value(-PARAM_MAG, PARAM_MAG);
                self.consts.push(Const {
                    name: c.clone(),
                    ty: "$F".into(),
                    value: format!("{v:.2}"),
                });
                self.float_consts.push((c, v));
            }
        }
        if self.p(Feature::ConstArrays, 0.3) {
            let dims: Vec<Len> = (0..self.rng.gen_range(1..=2))
                .map(|_| self.pick_len())
                .collect();
            let name = format!("T{}", self.consts.len());
            let value = self.const_array_literal(&dims);
            self.consts.push(Const {
                name: name.clone(),
                ty: Ty::floats(&dims).text(),
                value,
            });
            self.const_arrays.push((name, dims, PARAM_MAG));
        }
        if self.p(Feature::Structs, 0.35) {
            self.fields.push(("a".into(), Ty::Float));
            if self.coin(0.5) {
                self.fields.push(("b".into(), Ty::Float));
            }
            let len = self.pick_len();
            self.fields.push(("w".into(), Ty::floats(&[len])));
            if self.p(Feature::Arrays2d, 0.3) {
                let (a, b) = (self.pick_len(), self.pick_len());
                self.fields.push(("m".into(), Ty::floats(&[a, b])));
            }
        }
        let mut funcs = Vec::new();
        if self.on.has(Feature::Calls) {
            for k in 0..self.rng.gen_range(0..=3) {
                let f = self.helper(k);
                funcs.push(f);
            }
        }
        let mut top = self.top();
        if self.on.has(Feature::VecLocals) && crate::vecs::to_vecs(&mut top, &mut self.rng) {
            self.used.push(Feature::VecLocals);
        }
        let method = top.ret == Ty::Float
            && !top.calls_nested
            && top.params.iter().any(|q| q.ty == Ty::Struct)
            && !top.params.iter().any(|q| matches!(q.ty, Ty::Slice(_)))
            && self.p(Feature::ImplMethods, 0.5);
        funcs.push(top);
        for f in &mut funcs {
            keep_checkpoint_inputs_exact(&mut f.body);
        }
        let method_calls = method
            && funcs[..funcs.len() - 1].iter().any(crate::ast::as_method)
            && self.p(Feature::MethodCalls, 0.7);
        let mut consts = self.consts.clone();
        consts.sort_by(|a, b| a.name.cmp(&b.name));
        Program {
            name,
            float: self.float,
            mixed: self.mixed,
            consts,
            fields: self.fields.clone(),
            funcs,
            method,
            method_calls,
            enum_param: self.enum_param || self.uses_enum,
        }
    }

    fn pick_len(&mut self) -> Len {
        self.lens
            .choose(&mut self.rng)
            .cloned()
            .expect("at least one length")
    }

    fn lit_value(&mut self, lo: f64, hi: f64) -> f64 {
        (self.rng.gen_range(lo..hi) * 100.0).round() / 100.0
    }

    fn start(&mut self, inner: bool, budget: usize, ret: Ty) {
        self.scope.clear();
        self.clash = MACRO_NAMES.map(String::from).into();
        self.inner = inner;
        self.loops = 0;
        self.trips = 1.0;
        self.loop_trips.clear();
        self.nesting = 0;
        self.checkpointed = false;
        self.immutable_only = false;
        self.budget = budget;
        self.ret = ret;
        self.out_array = None;
    }

    fn param(&mut self, name: &str, ty: Ty, by_value: bool) -> Param {
        let kind = match &ty {
            Ty::Float => Kind::Float,
            Ty::Struct => Kind::Struct,
            Ty::Array(..) => Kind::Array {
                dims: dims_of(&ty),
                by_ref: !by_value,
            },
            _ => unreachable!("index parameters are made by their callers"),
        };
        self.scope.push(Var {
            name: name.into(),
            kind,
            mutable: false,
            mag: PARAM_MAG,
            depth: 0,
        });
        // The tangent, cotangent and direction the macro names after the parameter.
        (self.clash).extend(["t_", "d_", "v_", "d_t_"].map(|p| format!("{p}{name}")));
        // And the name a second binding of the parameter is emitted with.
        self.clash.push(format!("{name}_1"));
        Param {
            name: name.into(),
            ty,
            by_value,
            fixed: None,
        }
    }

    /// An enum parameter in scope, its value in the harness drawn here: `mode: E` (`by_value`)
    /// or `mode: &E`, or the function under test's `em: &E`.
    fn enum_param(&mut self, name: &str, kind: Kind, ty: Ty, by_value: bool) -> Param {
        let value = self.rng.gen_range(0..3);
        self.scope.push(Var {
            name: name.into(),
            kind,
            mutable: false,
            mag: 0.0,
            depth: 0,
        });
        Param {
            name: name.into(),
            ty,
            by_value,
            fixed: Some(vec![value]),
        }
    }

    /// A helper: a few float and array parameters (maybe the struct), a float or an array result.
    fn helper(&mut self, k: usize) -> Func {
        let inner = self.p(Feature::PathCalls, 0.3);
        let generic = self.p(Feature::GenericCalls, 0.25);
        let name = format!("g{k}");
        let ret = if self.p(Feature::ArrayCalls, 0.25) {
            Ty::floats(&[self.pick_len()])
        } else if self.on.has(Feature::TupleCalls) && self.side.gen_bool(0.3) {
            Ty::Tuple(vec![Ty::Float, Ty::Float])
        } else {
            Ty::Float
        };
        self.start(inner, HELPER_BUDGET, ret.clone());
        let mut params = Vec::new();
        let mut generics = Vec::new();
        if generic {
            let n = self.pick_len().value();
            generics.push(("N".to_string(), n));
            let len = Len::Named("N".into(), n);
            let by_value = self.p(Feature::ByValueCalls, 0.3);
            params.push(self.param("a", Ty::floats(std::slice::from_ref(&len)), by_value));
            if self.coin(0.6) {
                let by_value = self.p(Feature::ByValueCalls, 0.3);
                params.push(self.param("b", Ty::floats(&[len]), by_value));
            }
            if self.coin(0.5) {
                params.push(self.param("x", Ty::Float, false));
            }
        } else {
            params.push(self.param("x", Ty::Float, false));
            if self.coin(0.5) {
                params.push(self.param("y", Ty::Float, false));
            }
            if self.coin(0.4) {
                let len = self.pick_len();
                let by_value = self.p(Feature::ByValueCalls, 0.3);
                params.push(self.param("a", Ty::floats(&[len]), by_value));
            }
            if !self.fields.is_empty() && self.p(Feature::StructCalls, 0.4) {
                params.push(self.param("p", Ty::Struct, false));
            }
        }
        if self.p(Feature::Bools, 0.2) {
            params.push(self.flag_param());
        }
        // Not in a helper that takes the struct: that one is also a method of `S` with
        // `method-calls`, and a method's known callees keep a struct's type for what they pass
        // on (the enum would need `Default` there).
        let enum_ref = !generic
            && !params.iter().any(|q| q.ty == Ty::Struct)
            && self.p(Feature::EnumCalls, 0.3);
        if enum_ref {
            params.push(self.enum_param("mode", Kind::Enum, Ty::Enum, false));
            self.uses_enum = true;
        }
        self.called = false;
        let (mut body, tail) = self.body();
        if enum_ref {
            ensure_match(&mut body, &tail);
        }
        // `nested` takes a float output and floats and arrays, all differentiated.
        let nested = ret == Ty::Float
            && !enum_ref
            && !self.called
            && !params.iter().any(|q| q.ty == Ty::Struct)
            && params.iter().any(|q| q.ty == Ty::Float)
            && self.on.has(Feature::Nested)
            && self.side.gen_bool(0.5);
        // Some float parameters left out of `wrt(..)` (at least one differentiated remains).
        let floats: Vec<&Param> = params.iter().filter(|q| q.ty == Ty::Float).collect();
        let differentiable = params.iter().filter(|q| q.ty.has_floats()).count();
        let mut wrt = None;
        if !nested && !floats.is_empty() && differentiable >= 2 && self.p(Feature::WrtCalls, 0.3) {
            let out = self.rng.gen_range(1..=floats.len().min(differentiable - 1));
            let left: Vec<String> = (floats.choose_multiple(&mut self.rng, out))
                .map(|q| q.name.clone())
                .collect();
            let kept = (params.iter())
                .filter(|q| q.ty.has_floats() && !left.contains(&q.name))
                .map(|q| q.name.clone());
            wrt = Some(kept.collect::<Vec<String>>());
        }
        let f = Func {
            name: name.clone(),
            generics,
            params: params.clone(),
            ret: ret.clone(),
            body,
            tail,
            wrt: wrt.clone(),
            inner,
            nested,
            calls_nested: false,
        };
        self.callees.push(Callee {
            name,
            inner,
            generic,
            params,
            ret,
            nested,
            wrt,
        });
        f
    }

    /// The function under test.
    fn top(&mut self) -> Func {
        let ret = if self.p(Feature::ArrayReturn, 0.12) {
            Ty::floats(&[self.pick_len()])
        } else if self.p(Feature::TupleReturn, 0.12) {
            Ty::Tuple(vec![Ty::Float, Ty::Float])
        } else {
            Ty::Float
        };
        let budget = self.rng.gen_range(5..=TOP_BUDGET);
        self.start(false, budget, ret.clone());
        self.in_top = true;
        let mut generics = Vec::new();
        let generic = self.p(Feature::GenericFn, 0.12);
        if generic {
            let n = self.pick_len().value();
            generics.push(("N".to_string(), n));
        }
        let mut params = Vec::new();
        for name in ["x", "y", "z"].iter().take(self.rng.gen_range(1..=3)) {
            params.push(self.param(name, Ty::Float, false));
        }
        for name in ["a", "b"].iter().take(self.rng.gen_range(0..=2)) {
            let len = if generic {
                Len::Named("N".into(), generics[0].1)
            } else {
                self.pick_len()
            };
            // `invariant` nests read the rows of a 2-D parameter.
            let ty = if self.p(Feature::Arrays2d, 0.2) || self.p(Feature::Invariant, 0.2) {
                let rows = self.pick_len();
                Ty::floats(&[rows, len])
            } else {
                Ty::floats(&[len])
            };
            let by_value = self.p(Feature::ByValue, 0.15);
            params.push(self.param(name, ty, by_value));
        }
        if !self.fields.is_empty() {
            params.push(self.param("p", Ty::Struct, false));
        }
        let arrays = self.arrays();
        if let Some(src) = arrays.iter().find(|a| a.dims.len() == 1)
            && self.p(Feature::IndexTables, 0.25)
        {
            let bound = src.dims[0].value();
            let len = self.rng.gen_range(2..=5);
            let fixed: Vec<usize> = (0..len).map(|_| self.rng.gen_range(0..bound)).collect();
            self.scope.push(Var {
                name: "idx".into(),
                kind: Kind::Table { len, bound },
                mutable: false,
                mag: 0.0,
                depth: 0,
            });
            params.push(Param {
                name: "idx".into(),
                ty: Ty::Array(Box::new(Ty::Usize), Len::Lit(len)),
                by_value: false,
                fixed: Some(fixed),
            });
        }
        if self.p(Feature::UsizeParams, 0.1) {
            let value = self.rng.gen_range(0..2);
            self.scope.push(Var {
                name: "n".into(),
                kind: Kind::Index(value),
                mutable: false,
                mag: 0.0,
                depth: 0,
            });
            params.push(Param {
                name: "n".into(),
                ty: Ty::Usize,
                by_value: true,
                fixed: Some(vec![value]),
            });
        }
        if self.p(Feature::Bools, 0.2) {
            params.push(self.flag_param());
        }
        // Slices of data: a loop over one shares only an accumulator (see `slice_loop`).
        let slices = if self.on.has(Feature::Slices) && self.coin(0.25) {
            self.rng.gen_range(1..=2)
        } else {
            0
        };
        for k in 0..slices {
            let name = ["xs", "ys"][k];
            let len = self.rng.gen_range(1..=7);
            let data: Vec<i32> = (0..len).map(|_| self.rng.gen_range(-96..=96)).collect();
            self.scope.push(Var {
                name: name.into(),
                kind: Kind::Slice { len },
                mutable: false,
                mag: 0.0,
                depth: 0,
            });
            params.push(Param {
                name: name.into(),
                ty: Ty::Slice(data),
                by_value: false,
                fixed: None,
            });
        }
        if self.p(Feature::EnumParams, 0.2) {
            params.push(self.enum_param("mode", Kind::Enum, Ty::Enum, true));
            self.enum_param = true;
        }
        if self
            .callees
            .iter()
            .any(|c| c.params.iter().any(|q| q.ty == Ty::Enum))
            && self.p(Feature::EnumCalls, 0.6)
        {
            params.push(self.enum_param("em", Kind::PassedEnum, Ty::PassedEnum, false));
        }
        let floats: Vec<String> = params
            .iter()
            .filter(|p| p.ty.has_floats())
            .map(|p| p.name.clone())
            .collect();
        let wrt = if floats.len() >= 2 && self.p(Feature::Wrt, 0.15) {
            let keep: Vec<String> = floats
                .iter()
                .filter(|_| self.rng.gen_bool(0.5))
                .cloned()
                .collect();
            if keep.is_empty() || keep.len() == floats.len() {
                Some(vec![floats[0].clone()])
            } else {
                Some(keep)
            }
        } else {
            None
        };
        let (mut body, tail) = self.body();
        let matched = |needle| body.iter().any(|s| s.mentions(needle)) || tail.contains(needle);
        // `em` without a call that passes it on would be a struct parameter never used: the
        // macro would need `E: Default` for its gradient's zero.
        if !matched("em)") && !matched("em,") {
            params.retain(|q| q.ty != Ty::PassedEnum);
        }
        if self.enum_param {
            ensure_match(&mut body, &tail);
        }
        Func {
            name: "f".into(),
            generics,
            params,
            ret,
            body,
            tail,
            wrt,
            inner: false,
            nested: false,
            calls_nested: self.calls_nested,
        }
    }

    /// A function body for `self.ret`, and its tail expression.
    fn body(&mut self) -> (Vec<Stmt>, String) {
        let mut out = Vec::new();
        let ret = self.ret.clone();
        let out_array = if let Ty::Array(..) = ret {
            let name = self.fresh("o");
            let dims = dims_of(&ret);
            out.push(Stmt::Let {
                name: name.clone(),
                mutable: true,
                ty: Some(Ty::floats(&dims).text()),
                value: zeros(&dims),
                recompute: false,
                record: false,
            });
            self.scope.push(Var {
                name: name.clone(),
                kind: Kind::Array {
                    dims,
                    by_ref: false,
                },
                mutable: true,
                mag: 0.0,
                depth: 0,
            });
            self.out_array = Some(name.clone());
            Some(name)
        } else {
            None
        };
        while self.budget > 0 {
            self.budget -= 1;
            self.stmt(&mut out, true);
        }
        let tail = match (&ret, out_array) {
            (Ty::Array(_, len), Some(name)) => {
                // Every output element depends on the inputs.
                let i = self.fresh("i");
                self.enter_loop(&i, len.value() - 1, len.value() as f64);
                let e = self.bounded(2);
                self.leave_loop();
                out.push(Stmt::For {
                    label: None,
                    checkpoint: None,
                    pat: i.clone(),
                    iter: format!("0..{}", len.text()),
                    body: vec![Stmt::Assign {
                        place: format!("{name}[{i}]"),
                        op: "+=",
                        value: e.s,
                    }],
                });
                name
            }
            (Ty::Tuple(items), _) => {
                let parts: Vec<String> = items.iter().map(|_| self.result_expr()).collect();
                format!("({})", parts.join(", "))
            }
            _ => self.result_expr(),
        };
        (out, tail)
    }

    /// A float result: the latest float locals plus a fresh expression.
    fn result_expr(&mut self) -> String {
        let recent: Vec<Ex> = self
            .scope
            .iter()
            .rev()
            .filter(|v| matches!(v.kind, Kind::Float) && v.depth == 0)
            .take(3)
            .map(|v| tame(Ex::new(v.name.clone(), v.mag)))
            .collect();
        let mut e = self.expr(2);
        for r in recent {
            e = tame(Ex::new(format!("({} + {})", e.s, r.s), e.mag + r.mag));
        }
        e.s
    }

    fn enter_loop(&mut self, var: &str, max: usize, trips: f64) {
        self.loops += 1;
        self.labels.push(None);
        self.loop_trips.push(trips.max(1.0));
        self.trips = self.loop_trips.iter().product();
        if !var.is_empty() {
            self.scope.push(Var {
                name: var.into(),
                kind: Kind::Index(max),
                mutable: false,
                mag: 0.0,
                depth: self.loops,
            });
        }
    }

    fn leave_loop(&mut self) {
        self.loops -= 1;
        self.labels.pop();
        self.loop_trips.pop();
        self.trips = self.loop_trips.iter().product();
    }

    /// How many times an assignment here repeats per execution of the scope of a variable
    /// declared at loop depth `depth`.
    fn repeats(&self, depth: usize) -> f64 {
        self.loop_trips[depth.min(self.loop_trips.len())..]
            .iter()
            .product()
    }

    /// The slots of the variables that are in scope and not shadowed or borrowed.
    fn visible(&self) -> Vec<usize> {
        (0..self.scope.len())
            .filter(|&k| {
                let v = &self.scope[k];
                !self.hidden.contains(&v.name)
                    && !self.scope[k + 1..].iter().any(|w| w.name == v.name)
            })
            .collect()
    }

    /// A nested array literal of values in [-1.5, 1.5], `[[0.25, -1.10], [..]]`.
    fn const_array_literal(&mut self, dims: &[Len]) -> String {
        match dims.split_first() {
            None => format!("{:.2}", self.lit_value(-PARAM_MAG, PARAM_MAG)),
            Some((len, rest)) => {
                let items: Vec<String> = (0..len.value())
                    .map(|_| self.const_array_literal(rest))
                    .collect();
                format!("[{}]", items.join(", "))
            }
        }
    }

    fn arrays(&self) -> Vec<ArraySrc> {
        let mut out = Vec::new();
        // `const` arrays: read by index only (the macro does not see their type, so they are
        // neither iterated nor passed to callees: `arg` is empty).
        if self.on.has(Feature::ConstArrays) {
            for (name, dims, mag) in &self.const_arrays {
                out.push(ArraySrc {
                    text: name.clone(),
                    arg: String::new(),
                    dims: dims.clone(),
                    mag: *mag,
                    slot: None,
                    field: true,
                });
            }
        }
        for k in self.visible() {
            let v = &self.scope[k];
            match &v.kind {
                Kind::Array { dims, by_ref } => {
                    if self.immutable_only && v.mutable {
                        continue;
                    }
                    out.push(ArraySrc {
                        text: v.name.clone(),
                        arg: if *by_ref {
                            v.name.clone()
                        } else {
                            format!("&{}", v.name)
                        },
                        dims: dims.clone(),
                        mag: v.mag,
                        slot: (v.mutable && !self.frozen.contains(&v.name)).then_some(k),
                        field: false,
                    });
                }
                Kind::Struct => {
                    for (field, ty) in &self.fields {
                        if let Ty::Array(..) = ty {
                            out.push(ArraySrc {
                                text: format!("{}.{field}", v.name),
                                arg: format!("&{}.{field}", v.name),
                                dims: dims_of(ty),
                                mag: PARAM_MAG,
                                slot: None,
                                field: true,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// An index below `len` from loop indices and literals.
    fn int_index(&mut self, len: usize) -> String {
        let mut cands = Vec::new();
        for k in self.visible() {
            let v = &self.scope[k];
            if let Kind::Index(max) = v.kind
                && max < len
            {
                cands.push(v.name.clone());
                cands.push(v.name.clone());
                if max + 1 < len {
                    cands.push(format!("{} + 1", v.name));
                }
                cands.push(format!("{} - {}", len - 1, v.name));
            }
        }
        if cands.is_empty() || self.coin(0.15) {
            return self.rng.gen_range(0..len).to_string();
        }
        cands.choose(&mut self.rng).cloned().expect("not empty")
    }

    /// An index below `len`, maybe through an index table.
    fn index(&mut self, len: usize) -> String {
        let tables: Vec<(String, usize)> = self
            .visible()
            .into_iter()
            .filter_map(|k| match self.scope[k].kind {
                Kind::Table { len: t, bound } if bound <= len => {
                    Some((self.scope[k].name.clone(), t))
                }
                _ => None,
            })
            .collect();
        if let Some((name, t)) = tables.choose(&mut self.rng).cloned()
            && self.coin(0.5)
        {
            let j = self.int_index(t);
            return format!("{name}[{j}]");
        }
        self.int_index(len)
    }

    fn elem(&mut self, src: &ArraySrc) -> String {
        let mut s = src.text.clone();
        for d in &src.dims {
            let i = self.index(d.value());
            s.push_str(&format!("[{i}]"));
        }
        s
    }

    fn literal(&mut self) -> Ex {
        let v = self.lit_value(-2.0, 2.0);
        let s = if v < 0.0 {
            format!("({v:.2})")
        } else {
            format!("{v:.2}")
        };
        Ex {
            s,
            mag: v.abs(),
            typed: false,
        }
    }

    /// A float read: a variable, an element, a field, a constant, a literal or a cast index.
    fn leaf(&mut self) -> Ex {
        let r = self.rng.gen_range(0..100);
        if r < 12 {
            return self.literal();
        }
        if r < 20 && !self.float_consts.is_empty() && self.on.has(Feature::Consts) {
            let (name, v) = self
                .float_consts
                .choose(&mut self.rng)
                .cloned()
                .expect("not empty");
            self.used.push(Feature::Consts);
            // The macro cannot see a constant's type: a `let` of constants alone needs one.
            return Ex {
                s: name,
                mag: v.abs(),
                typed: false,
            };
        }
        if r < 22 && self.p(Feature::Paths, 0.5) {
            return Ex::new("core::$F::consts::PI".into(), 3.2);
        }
        if r < 50 {
            let arrays = self.arrays();
            if let Some(src) = arrays.choose(&mut self.rng).cloned() {
                let e = self.elem(&src);
                // An element of a `const` array (no `arg`): its type is not visible to the
                // macro, so a `let` of it alone needs an annotation, like a float constant's.
                let mut e = Ex::new(e, src.mag);
                e.typed = !src.arg.is_empty();
                return e;
            }
        }
        if r < 56 && self.coin(0.5) {
            let scalar: Vec<String> = self
                .fields
                .iter()
                .filter(|(_, t)| *t == Ty::Float)
                .map(|(n, _)| n.clone())
                .collect();
            let p = self.visible().into_iter().find_map(|k| {
                matches!(self.scope[k].kind, Kind::Struct).then(|| self.scope[k].name.clone())
            });
            if let (Some(p), Some(field)) = (p, scalar.choose(&mut self.rng)) {
                return Ex::new(format!("{p}.{field}"), PARAM_MAG);
            }
        }
        let mut cands = Vec::new();
        for k in self.visible() {
            let v = &self.scope[k];
            if self.immutable_only && v.mutable {
                continue;
            }
            match v.kind {
                Kind::Float => cands.push(Ex::new(v.name.clone(), v.mag)),
                Kind::Elem => cands.push(Ex::new(format!("(*{})", v.name), v.mag)),
                Kind::ElemMut if !self.immutable_only => {
                    cands.push(Ex::new(format!("(*{})", v.name), v.mag));
                }
                Kind::Index(max) if self.on.has(Feature::IntCasts) => {
                    cands.push(Ex::new(format!("({} as $F)", v.name), max as f64));
                }
                Kind::Counter if self.on.has(Feature::IntCasts) => {
                    cands.push(Ex::new(format!("({} as $F)", v.name), 12.0));
                }
                _ => {}
            }
        }
        if cands.is_empty() {
            return self.literal();
        }
        // Biased to the latest: loop variables and fresh locals.
        let n = cands.len();
        let back = self.rng.gen_range(0..n).min(self.rng.gen_range(0..n));
        let e = cands.swap_remove(n - 1 - back);
        if e.s.contains(" as $F") {
            self.used.push(Feature::IntCasts);
        }
        e
    }

    /// An expression that is not a bare literal (so it can receive a method call).
    fn operand(&mut self, depth: usize) -> Ex {
        for _ in 0..6 {
            let e = self.expr(depth);
            if e.typed {
                return tame(e);
            }
        }
        let arrays = self.arrays();
        match arrays.first().cloned() {
            Some(src) => Ex::new(self.elem(&src), src.mag),
            None => Ex::new("(1.0 as $F)".into(), 1.0),
        }
    }

    /// A value in about [-1.6, 1.6] whatever its operands, for updates that repeat in loops.
    fn bounded(&mut self, depth: usize) -> Ex {
        let e = self.operand(depth);
        let m = *["tanh", "sin", "cos", "atan"]
            .choose(&mut self.rng)
            .expect("not empty");
        Ex::new(format!("{}.{m}()", e.s), 1.6)
    }

    fn expr(&mut self, depth: usize) -> Ex {
        if depth == 0 || self.coin(0.2) {
            return self.leaf();
        }
        let d = depth - 1;
        // Not in a condition: a call whose body is a block is refused there.
        if self.in_cond == 0
            && self.on.has(Feature::Closures)
            && self.side.gen_bool(0.1)
            && let Some(e) = self.closure_call(d)
        {
            return e;
        }
        match self.rng.gen_range(0..100) {
            0..30 => {
                let (a, b) = (tame(self.expr(d)), tame(self.expr(d)));
                let op = *["+", "-", "*"].choose(&mut self.rng).expect("not empty");
                let mag = if op == "*" {
                    a.mag * b.mag
                } else {
                    a.mag + b.mag
                };
                Ex::from(format!("({} {op} {})", a.s, b.s), mag, &[&a, &b])
            }
            30..37 if self.p(Feature::Division, 0.9) => {
                let a = tame(self.expr(d));
                let b = tame(self.leaf());
                match self.rng.gen_range(0..3) {
                    0 => Ex::from(
                        format!("({} / ({} * {} + 1.0))", a.s, b.s, b.s),
                        a.mag,
                        &[&a, &b],
                    ),
                    1 if b.typed && self.p(Feature::Kinks, 0.5) => Ex::from(
                        format!("({} / ({}.abs() + 0.5))", a.s, b.s),
                        2.0 * a.mag,
                        &[&a],
                    ),
                    _ => Ex::from(format!("({} / 1.7)", a.s), a.mag / 1.7, &[&a]),
                }
            }
            37..41 => {
                let a = self.expr(d);
                Ex::from(format!("(-{})", a.s), a.mag, &[&a])
            }
            41..66 => self.method(d),
            66..71 if self.in_cond == 0 && self.p(Feature::PanicValues, 0.15) => {
                // A guard no value reaches (`a` stays within its magnitude bound), so the
                // function never panics; the branch that does is the one the macro rewrites.
                // `a` is read in the condition: no `let` blocks in it.
                self.in_cond += 1;
                let a = self.expr(d);
                self.in_cond -= 1;
                let b = self.expr(d);
                let bound = 2.0 * a.mag + 10.5;
                let s = if self.coin(0.5) {
                    format!(
                        "(if {} > {bound:.1} {{ panic!(\"beyond the bound\") }} else {{ {} }})",
                        a.s, b.s
                    )
                } else {
                    format!(
                        "(if {} <= {bound:.1} {{ {} }} else {{ panic!(\"beyond the bound\") }})",
                        a.s, b.s
                    )
                };
                // Typed as `b` alone: the panicking branch gives the value no type.
                Ex::from(s, b.mag, &[&b])
            }
            66..71 if self.p(Feature::IfExpr, 0.8) => {
                let c = self.cond(1);
                let (a, b) = (self.expr(d), self.expr(d));
                if self.coin(0.3) {
                    let c2 = self.cond(0);
                    let e = self.expr(d);
                    Ex::from(
                        format!(
                            "(if {c} {{ {} }} else if {c2} {{ {} }} else {{ {} }})",
                            a.s, b.s, e.s
                        ),
                        a.mag.max(b.mag).max(e.mag),
                        &[&a, &b, &e],
                    )
                } else {
                    Ex::from(
                        format!("(if {c} {{ {} }} else {{ {} }})", a.s, b.s),
                        a.mag.max(b.mag),
                        &[&a, &b],
                    )
                }
            }
            71..75 if self.in_cond == 0 && self.p(Feature::Blocks, 0.8) => {
                let a = tame(self.expr(d));
                let t = self.fresh("t");
                self.scope.push(Var {
                    name: t.clone(),
                    kind: Kind::Float,
                    mutable: false,
                    mag: a.mag,
                    depth: self.loops,
                });
                let b = tame(self.expr(d));
                self.scope.pop();
                let ty = if a.typed { "" } else { ": $F" };
                Ex::from(
                    format!("{{ let {t}{ty} = {}; {t} * {} }}", a.s, b.s),
                    a.mag * b.mag,
                    &[&a, &b],
                )
            }
            75..85 => match self.call(d) {
                Some(e) => e,
                None => self.leaf(),
            },
            // Not in a condition: the f64 twin drops the cast, so a comparison of a value
            // with its own rounding (`v <= (v as f32 as f64)`) takes its branches by the
            // rounding alone, differently in the twin (seed 45, p119).
            85..89 if self.in_cond == 0 && self.p(Feature::MixedCasts, 0.8) => {
                self.mixed = true;
                let a = self.operand(d);
                if self.coin(0.5) {
                    let m = *["sin", "cos", "tanh", "atan", "exp"]
                        .choose(&mut self.rng)
                        .expect("not empty");
                    let a = if m == "exp" { self.bounded_of(a) } else { a };
                    Ex::new(format!("(({} as $H).{m}() as $F)", a.s), 3.0)
                } else {
                    Ex::new(format!("({} as $H as $F)", a.s), a.mag)
                }
            }
            89..93 if self.in_cond == 0 && self.p(Feature::Reductions, 0.8) => {
                match self.reduction() {
                    Some(e) => e,
                    None => self.leaf(),
                }
            }
            93..96 if self.in_cond == 0 && self.p(Feature::Match, 0.8) => self.match_expr(d),
            _ => self.leaf(),
        }
    }

    /// An iterator reduction over a 1-D array: `sum`, `product`, `fold` (with a closure or
    /// `$F::max`), after `map`, `zip` or `copied`.
    fn reduction(&mut self) -> Option<Ex> {
        let arrays: Vec<ArraySrc> = self
            .arrays()
            .into_iter()
            .filter(|a| a.dims.len() == 1 && !a.field)
            .collect();
        let src = arrays.choose(&mut self.rng)?.clone();
        let len = src.dims[0].clone();
        let n = len.value() as f64;
        let a = &src.text;
        let v = self.fresh("e");
        let e = tame(self.leaf());
        let ex = match self.rng.gen_range(0..6) {
            0 => Ex::new(format!("{a}.iter().sum::<$F>()"), n * src.mag),
            1 => Ex::from(
                format!("{a}.iter().map(|{v}| {v} * {}).sum::<$F>()", e.s),
                n * src.mag * e.mag,
                &[&e],
            ),
            2 => {
                // Now and then (`clash-names`) `fold`'s accumulator named like a float the
                // `map` before it reads: each closure's names are its own. (A name, not a
                // tuple's element `t.0` or a row's `r[1]`, which floats are too.)
                let outer = self.visible().into_iter().find_map(|k| {
                    let x = &self.scope[k];
                    let name = x.name.chars().all(|c| c.is_alphanumeric() || c == '_');
                    (matches!(x.kind, Kind::Float) && name).then(|| (x.name.clone(), x.mag))
                });
                match outer {
                    Some((p, mag)) if self.p(Feature::ClashNames, 0.3) => {
                        let w = self.fresh("e");
                        Ex::new(
                            format!(
                                "{a}.iter().map(|{v}| {v} * ({p}).tanh()).fold(0.0, |{p}, {w}| {p} + {w} * 0.5)"
                            ),
                            n * src.mag * mag.min(1.0),
                        )
                    }
                    _ => Ex::new(
                        format!("{a}.iter().fold(0.0, |acc, {v}| acc + ({v} * 0.5).sin())"),
                        n,
                    ),
                }
            }
            3 => Ex::new(
                format!("{a}.iter().copied().fold($F::NEG_INFINITY, $F::max)"),
                src.mag,
            ),
            4 => {
                // Mostly arrays of one length; now and then any two (`zip` stops at the
                // shorter).
                let any = self.coin(0.3);
                let same: Vec<ArraySrc> = arrays
                    .iter()
                    .filter(|b| any || b.dims[0].value() == len.value())
                    .cloned()
                    .collect();
                let b = same.choose(&mut self.rng)?.text.clone();
                let w = self.fresh("e");
                Ex::new(
                    format!("{a}.iter().zip({b}.iter()).map(|({v}, {w})| {v} * {w}).sum::<$F>()"),
                    n * src.mag * src.mag,
                )
            }
            _ => {
                let i = self.fresh("i");
                Ex::new(
                    format!(
                        "(0..{}).map(|{i}| 1.0 + 0.1 * {a}[{i}].tanh()).product::<$F>()",
                        len.text()
                    ),
                    1.1f64.powf(n),
                )
            }
        };
        Some(ex)
    }

    /// A `match` as a value: on a loop index or integer (`0`, `1 | 2`, `3..=5`, `_`), or on a
    /// `bool` condition.
    fn match_expr(&mut self, d: usize) -> Ex {
        let index = self
            .visible()
            .into_iter()
            .rev()
            .find_map(|k| match self.scope[k].kind {
                Kind::Index(_) => Some(self.scope[k].name.clone()),
                _ => None,
            });
        let (a, b, c) = (self.expr(d), self.expr(d), self.expr(d));
        let mag = a.mag.max(b.mag).max(c.mag);
        let mode = self
            .visible()
            .into_iter()
            .any(|k| matches!(self.scope[k].kind, Kind::Enum));
        if self.p(Feature::TupleMatch, 0.35) {
            return self.tuple_match(index.as_deref(), mode, [&a, &b, &c], mag);
        }
        if mode && self.coin(0.6) {
            // Typed if an arm it keeps is (an untyped `match` of literals takes no method).
            let (text, parts) = match self.rng.gen_range(0..3) {
                0 => (
                    format!(
                        "(match mode {{ E::A => {}, E::B => {}, E::C => {} }})",
                        a.s, b.s, c.s
                    ),
                    vec![&a, &b, &c],
                ),
                1 => (
                    format!("(match mode {{ E::A | E::C => {}, _ => {} }})", a.s, b.s),
                    vec![&a, &b],
                ),
                _ => (
                    format!("(match mode {{ E::B => {}, _ => {} }})", a.s, c.s),
                    vec![&a, &c],
                ),
            };
            return Ex::from(text, mag, &parts);
        }
        match index {
            Some(i) if self.coin(0.7) => {
                let k = self.rng.gen_range(2..=4);
                // Or-patterns; `arm @` bindings and a catch-all binding read as floats (named so
                // that they shadow nothing the arms read: `n @ 1..=2` hid a parameter `n`, and
                // seed 4406 indexed past an array with the binding); guards on floats (the arm
                // taken is decided like an `if`'s).
                let text = match self.rng.gen_range(0..3) {
                    0 => format!(
                        "(match {i} % {k} {{ 0 => {}, 1 | 5 => {}, _ => {} }})",
                        a.s, b.s, c.s
                    ),
                    1 => format!(
                        "(match {i} % {k} {{ 0 => {}, arm @ 1..=2 => ({}) * (arm as $F), arm => ({}) + 0.1 * (arm as $F) }})",
                        a.s, b.s, c.s
                    ),
                    _ => {
                        let cond = self.cond(0);
                        format!(
                            "(match {i} % {k} {{ 0 if {cond} => {}, 0 | 1 => {}, _ => {} }})",
                            a.s, b.s, c.s
                        )
                    }
                };
                Ex::from(text, mag * 4.0, &[&a, &b, &c])
            }
            _ if self.coin(0.5) => {
                let cond = self.cond(0);
                Ex::from(
                    format!("(match {cond} {{ true => {}, false => {} }})", a.s, b.s),
                    mag,
                    &[&a, &b],
                )
            }
            // A float bound by name only (its derivative kept through the name), with a guard
            // on it (a kink, as an `if`'s condition is).
            _ => Ex::from(
                format!(
                    "(match {} {{ val if val > 0.25 => val * ({}), val => ({}) - 0.5 * val }})",
                    a.s, b.s, c.s
                ),
                a.mag * b.mag + c.mag + a.mag,
                &[&a, &b, &c],
            ),
        }
    }

    /// A `match` on a tuple written out (`tuple-match`): a loop index's remainder with a
    /// condition, a float bound by name (`elt`, read by a guard and the arm) with a remainder,
    /// or the enum (else a second condition) with a condition.
    fn tuple_match(
        &mut self,
        index: Option<&str>,
        mode: bool,
        [a, b, c]: [&Ex; 3],
        mag: f64,
    ) -> Ex {
        let parts = [a, b, c];
        let rem = index.map(|i| format!("{i} % {}", self.rng.gen_range(2..=4)));
        let (a, b, c) = (&a.s, &b.s, &c.s);
        let (text, mag) = match (rem, self.rng.gen_range(0..2)) {
            (Some(r), 0) => {
                let cond = self.cond(0);
                (
                    format!(
                        "(match ({r}, {cond}) {{ (0, true) => {a}, (1 | 2, _) | (_, false) => {b}, _ => {c} }})"
                    ),
                    mag,
                )
            }
            (Some(r), _) => (
                format!(
                    "(match ({a}, {r}) {{ (elt, 0) => elt * 0.5 + {b}, (elt, arm @ 1..=2) if elt > 0.0 => elt + ({b}) * (arm as $F), (.., _) => {c} }})"
                ),
                mag * 4.0,
            ),
            (None, _) if mode => {
                let cond = self.cond(0);
                (
                    format!(
                        "(match (mode, {cond}) {{ (E::A, true) => {a}, (E::B | E::C, ..) => {b}, _ => {c} }})"
                    ),
                    mag,
                )
            }
            (None, _) => {
                let (cond, other) = (self.cond(0), self.cond(0));
                (
                    format!(
                        "(match ({cond}, ({other}, 1)) {{ (true, (true, _)) => {a}, (false, ..) => {b}, _ => {c} }})"
                    ),
                    mag,
                )
            }
        };
        Ex::from(text, mag, &parts)
    }

    fn bounded_of(&mut self, e: Ex) -> Ex {
        if e.mag <= 1.0 {
            e
        } else {
            Ex::new(format!("{}.tanh()", e.s), 1.0)
        }
    }

    /// A float method, with its operand kept inside the method's domain.
    fn method(&mut self, d: usize) -> Ex {
        const SMOOTH: &[&str] = &[
            "exp",
            "exp2",
            "exp_m1",
            "ln",
            "ln_1p",
            "log",
            "log2",
            "log10",
            "sqrt",
            "cbrt",
            "powi",
            "powf",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "atan2",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "recip",
            "hypot",
            "mul_add",
            "to_degrees",
            "to_radians",
        ];
        const KINKS: &[&str] = &["abs", "signum", "max", "min", "clamp"];
        let kinks = self.on.has(Feature::Kinks) && self.coin(0.25);
        if !kinks && !self.on.has(Feature::Methods) {
            return self.leaf();
        }
        let m = if kinks {
            self.used.push(Feature::Kinks);
            *KINKS.choose(&mut self.rng).expect("not empty")
        } else {
            self.used.push(Feature::Methods);
            *SMOOTH.choose(&mut self.rng).expect("not empty")
        };
        let x = self.operand(d);
        let (s, mag) = (x.s.clone(), x.mag);
        // `s * s + c` for a positive argument.
        let square = |c: f64| format!("({s} * {s} + {c:.1})");
        match m {
            "exp" | "exp2" | "exp_m1" => {
                let x = if mag > 2.0 {
                    Ex::new(format!("{s}.tanh()"), 1.0)
                } else {
                    x
                };
                Ex::new(format!("{}.{m}()", x.s), x.mag.exp() + 1.0)
            }
            "ln" | "log2" | "log10" => Ex::new(
                format!("{}.{m}()", square(0.5)),
                (mag * mag + 0.5).ln().abs().max(0.7) * 1.5,
            ),
            "log" => {
                let base = if self.coin(0.5) {
                    "3.0".to_string()
                } else {
                    let b = self.operand(0);
                    format!("({} * {} + 1.5)", b.s, b.s)
                };
                Ex::new(
                    format!("{}.log({base})", square(0.5)),
                    (mag * mag + 0.5).ln().abs().max(0.7) * 2.5,
                )
            }
            "ln_1p" => Ex::new(format!("({s} * {s}).ln_1p()"), (mag * mag).ln_1p()),
            "sqrt" | "cbrt" if self.p(Feature::FnPaths, 0.3) => {
                Ex::new(format!("$F::{m}{}", square(0.5)), mag + 1.0)
            }
            "sqrt" | "cbrt" => Ex::new(format!("{}.{m}()", square(0.5)), mag + 1.0),
            "recip" => Ex::new(format!("{}.recip()", square(0.5)), 2.0),
            "powi" => {
                let n: i32 = *[0, 1, 2, 3, 4, -1, -2]
                    .choose(&mut self.rng)
                    .expect("not empty");
                if n < 0 {
                    Ex::new(format!("{}.powi({n})", square(0.5)), 4.0)
                } else {
                    let x = tame(Ex::new(s.clone(), mag * 2.0));
                    Ex::new(format!("{}.powi({n})", x.s), (x.mag / 2.0).max(1.0).powi(n))
                }
            }
            "powf" => {
                let b = self.bounded_of(x);
                let y = self.bounded(0);
                Ex::new(format!("({} * {} + 0.5).powf({})", b.s, b.s, y.s), 5.0)
            }
            "sin" | "cos" | "tanh" if self.p(Feature::FnPaths, 0.3) => {
                Ex::new(format!("$F::{m}({s})"), 1.0)
            }
            "sin" | "cos" | "tanh" => Ex::new(format!("{s}.{m}()"), 1.0),
            "atan" => Ex::new(format!("{s}.atan()"), 1.6),
            "tan" => Ex::new(format!("{s}.sin().tan()"), 1.6),
            "asin" | "acos" => Ex::new(format!("({s}.tanh() * 0.9).{m}()"), 2.7),
            "atanh" => Ex::new(format!("({s}.tanh() * 0.9).atanh()"), 1.5),
            "atan2" => {
                let y = self.operand(d);
                let y = if self.coin(0.5) {
                    y.s
                } else {
                    format!("({} * {} + 0.3)", y.s, y.s)
                };
                Ex::new(format!("{s}.atan2({y})"), 3.2)
            }
            "sinh" | "cosh" => {
                let x = if mag > 2.0 {
                    Ex::new(format!("{s}.tanh()"), 1.0)
                } else {
                    x
                };
                Ex::new(format!("{}.{m}()", x.s), x.mag.cosh())
            }
            "asinh" => Ex::new(format!("{s}.asinh()"), mag.asinh()),
            "acosh" => Ex::new(
                format!("{}.acosh()", square(1.1)),
                (mag * mag + 1.1).acosh(),
            ),
            "hypot" => {
                let y = self.operand(d);
                Ex::new(format!("{s}.hypot({})", y.s), mag + y.mag)
            }
            "mul_add" => {
                let (y, z) = (self.operand(d), tame(self.expr(d)));
                Ex::new(
                    format!("{s}.mul_add({}, {})", y.s, z.s),
                    mag * y.mag + z.mag,
                )
            }
            "to_degrees" => Ex::new(format!("({s}.to_degrees() * 0.01)"), mag * 0.6),
            "to_radians" => Ex::new(format!("{s}.to_radians()"), mag * 0.02),
            "abs" if self.p(Feature::FnPaths, 0.3) => Ex::new(format!("$F::abs({s})"), mag),
            "abs" => Ex::new(format!("{s}.abs()"), mag),
            "signum" => Ex::new(format!("{s}.signum()"), 1.0),
            "max" | "min" if self.coin(0.3) => {
                // Exact zeros downstream: the edge cases of later rules.
                Ex::new(format!("{s}.{m}(0.0)"), mag)
            }
            "max" | "min" => {
                let y = tame(self.expr(d));
                let text = if self.p(Feature::FnPaths, 0.3) {
                    format!("$F::{m}({s}, {})", y.s)
                } else {
                    format!("{s}.{m}({})", y.s)
                };
                Ex::new(text, mag.max(y.mag))
            }
            "clamp" => {
                let lo = self.lit_value(-1.5, 0.5);
                let hi = lo + self.lit_value(0.2, 1.5);
                Ex::new(
                    format!("{s}.clamp({lo:.2}, {hi:.2})"),
                    lo.abs().max(hi.abs()),
                )
            }
            _ => unreachable!("every method has a template"),
        }
    }

    /// A call to an earlier helper returning a float, if one can be called here.
    fn call(&mut self, d: usize) -> Option<Ex> {
        // Or an element of a tuple-valued helper's result, `g(..).1`.
        if let Some(callee) = self.tuple_callee() {
            let text = self.call_text(&callee, d)?;
            let k = self.side.gen_range(0..2);
            self.calls_nested = true;
            self.used.push(Feature::TupleCalls);
            return Some(tame(Ex::new(format!("{text}.{k}"), 6.0)));
        }
        let floats: Vec<Callee> = self
            .callees
            .iter()
            .filter(|c| c.ret == Ty::Float)
            .cloned()
            .collect();
        let callee = floats.choose(&mut self.rng)?.clone();
        let text = self.call_text(&callee, d)?;
        // In the function under test, a `nested` helper's call may become a call of its
        // gradient with respect to one of its float parameters (the same arguments).
        let grads: Vec<&Param> = (callee.params.iter())
            .filter(|q| q.ty == Ty::Float)
            .collect();
        if self.in_top && callee.nested && !grads.is_empty() && self.side.gen_bool(0.6) {
            let k = self.side.gen_range(0..grads.len());
            let x = &grads[k].name;
            // Or through the tuple `f_jvp` returns, along `x` alone (forward inside):
            // `{ let (_, d) = g0_jvp(args, 0.0, 1.0, &[0.0; 3]); d }`.
            if !callee.generic && self.in_cond == 0 && self.side.gen_bool(0.5) {
                // An array's zero tangent is a local (arguments are places).
                let mut zeros = String::new();
                let mut tangents = Vec::new();
                for q in callee.params.iter().filter(|q| q.ty.has_floats()) {
                    tangents.push(match &q.ty {
                        Ty::Float if q.name == *x => "1.0".to_string(),
                        Ty::Float => "0.0".to_string(),
                        ty => {
                            let z = self.fresh("z");
                            zeros.push_str(&format!("let {z} = {}; ", zero_of(ty)));
                            format!("&{z}")
                        }
                    });
                }
                let d = self.fresh("d");
                let call = text.replacen(&callee.name, &format!("{}_jvp", callee.name), 1);
                let call = format!("{}, {})", &call[..call.len() - 1], tangents.join(", "));
                self.calls_nested = true;
                self.used.push(Feature::Nested);
                let text = format!("{{ {zeros}let (_, {d}) = {call}; {d} }}");
                return Some(tame(Ex::new(text, 100.0)));
            }
            let text = text.replacen(&callee.name, &format!("{}_grad_{x}", callee.name), 1);
            self.calls_nested = true;
            self.used.push(Feature::Nested);
            // A gradient's size is not the value's: scaled well inside the inputs' range.
            return Some(tame(Ex::new(text, 100.0)));
        }
        Some(tame(Ex::new(text, 6.0)))
    }

    /// `g(args)` with arguments of the right types from what is in scope.
    fn call_text(&mut self, callee: &Callee, d: usize) -> Option<String> {
        self.called = true;
        let arrays = self.arrays();
        let mut args = Vec::new();
        let mut turbofish = String::new();
        let mut generic_len: Option<Len> = None;
        // An untyped array result passed by value: typed through the contracts it is passed
        // to, so this call must go through its callee's contract.
        let mut untyped_by_value = false;
        for p in &callee.params {
            let left_out = (callee.wrt.as_ref()).is_some_and(|w| !w.contains(&p.name));
            match &p.ty {
                // No derivative may reach a parameter the callee leaves out.
                Ty::Float if left_out => {
                    self.used.push(Feature::WrtCalls);
                    args.push(self.literal().s);
                }
                Ty::Float => args.push(within(self.expr(d), PARAM_MAG).s),
                // Helpers take no slices.
                Ty::Slice(_) => return None,
                Ty::Struct => {
                    let k = self
                        .visible()
                        .into_iter()
                        .find(|&k| matches!(self.scope[k].kind, Kind::Struct))?;
                    args.push(self.scope[k].name.clone());
                }
                Ty::Array(..) => {
                    let mut want = dims_of(&p.ty);
                    if let Some(n) = &generic_len {
                        want[0] = n.clone();
                    }
                    let fits: Vec<&ArraySrc> = arrays
                        .iter()
                        .filter(|a| {
                            !a.arg.is_empty()
                                && a.mag <= PARAM_MAG
                                && a.dims.len() == want.len()
                                && a.dims.iter().zip(&want).all(|(x, y)| {
                                    same_type(x, y)
                                        || (callee.generic
                                            && generic_len.is_none()
                                            && x.value() == y.value())
                                })
                        })
                        .collect();
                    let src = fits.choose(&mut self.rng)?;
                    untyped_by_value |= p.by_value && self.untyped.contains(&src.text);
                    if callee.generic && generic_len.is_none() {
                        generic_len = Some(src.dims[0].clone());
                        turbofish = format!("::<{}>", src.dims[0].text());
                    }
                    args.push(if !p.by_value {
                        src.arg.clone()
                    } else if let Some(place) = src.arg.strip_prefix('&') {
                        place.to_string()
                    } else {
                        format!("*{}", src.arg)
                    });
                }
                Ty::Bool => {
                    // A closure's body reads no `mut` bool (its borrow would keep the bool
                    // from being assigned: seed 1, p205, once `tuple-match` moved the stream).
                    let bools: Vec<String> = (self.visible().into_iter())
                        .filter(|&k| matches!(self.scope[k].kind, Kind::Bool))
                        .filter(|&k| !(self.immutable_only && self.scope[k].mutable))
                        .map(|k| self.scope[k].name.clone())
                        .collect();
                    args.push(match bools.choose(&mut self.rng) {
                        Some(b) if self.coin(0.7) => b.clone(),
                        _ => ["true", "false"][self.rng.gen_range(0..2)].to_string(),
                    });
                }
                Ty::Enum => {
                    // The caller's `em` (only passed on), its `mode` (by value in the function
                    // under test, by reference in a helper), or no call.
                    let enums: Vec<(String, bool)> = (self.visible().into_iter())
                        .filter_map(|k| match self.scope[k].kind {
                            // Not in a condition: an `em` only passed to calls there carries
                            // no derivative, and the macro leaves it out of the gradient.
                            Kind::PassedEnum if self.in_cond == 0 => {
                                Some((self.scope[k].name.clone(), true))
                            }
                            Kind::Enum => Some((self.scope[k].name.clone(), !self.in_top)),
                            _ => None,
                        })
                        .collect();
                    let (name, by_ref) = enums.choose(&mut self.rng)?.clone();
                    args.push(if by_ref { name } else { format!("&{name}") });
                    self.used.push(Feature::EnumCalls);
                }
                Ty::Usize | Ty::PassedEnum | Ty::Tuple(_) => return None,
            }
        }
        self.used.push(Feature::Calls);
        // Floats never carry a constant; the arrays must be locals or parameters.
        // A float argument that is a place in a `const` array or a struct field (`T0[3][1]`,
        // `p.w[1]`) is one too: the macro reads it in place, without seeing its type.
        let place = |a: &str| {
            let root = a.split('[').next().unwrap_or(a);
            root.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && (root.contains('.') || root.starts_with(|c: char| c.is_ascii_uppercase()))
        };
        self.seen_args = (callee.params.iter().zip(&args)).all(|(p, a)| match p.ty {
            Ty::Array(..) => {
                let a = a.trim_start_matches(['&', '*']);
                !a.contains('.') && !a.starts_with(|c: char| c.is_ascii_uppercase())
            }
            // A branch's value may be such a place too (`(if c { panic!(..) } else { T1[i] })`,
            // seed 1 after the closures: the macro reads the value the branch gives).
            Ty::Float => {
                let branchy = a.starts_with("(if ") || a.starts_with("(match ");
                let unseen = (a.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')))
                    .any(|w| place(w) && !w.is_empty());
                !(place(a) || (branchy && unseen))
            }
            _ => true,
        });
        // A `wrt(..)` callee, or one passed an enum, is called without its constants named
        // (its adjoint and tangent through its slot forwarders, `g_adjoint_call`, also where
        // an argument is a struct's field or a `const` item's element; an enum passed on
        // reaches the helper's zero through them too).
        let enum_arg = callee.params.iter().any(|q| q.ty == Ty::Enum);
        if untyped_by_value {
            // An untyped result passed by value goes through the callee's contract only: no
            // field, method call (`.` then a letter) or `const` item in any argument, which
            // the macro's scan for values passed on whole does not take for one.
            let field = (args.iter()).any(|a| a.trim_start_matches(['&', '*']).starts_with("p."));
            let strict = (args.iter()).any(|a| {
                let dotted = (a.as_bytes().windows(2))
                    .any(|w| w[0] == b'.' && (w[1].is_ascii_alphabetic() || w[1] == b'_'));
                dotted
                    || a.trim_start_matches(['&', '*'])
                        .starts_with(char::is_uppercase)
            });
            if !self.seen_args || field || strict {
                return None;
            }
        }
        if callee.wrt.is_some() || untyped_by_value || enum_arg {
            // Not a const-generic callee passed a field or a `const` item: without its
            // constants named, the macro cannot name its tape (the docs' "missing generics").
            if callee.generic && !self.seen_args {
                return None;
            }
            turbofish.clear();
        }
        if callee.generic {
            self.used.push(Feature::GenericCalls);
            if self.seen_args && self.p(Feature::ContractCalls, 0.5) {
                turbofish.clear();
            }
        }
        if callee.params.iter().any(|p| p.ty == Ty::Struct) {
            self.used.push(Feature::StructCalls);
        }
        if callee.params.iter().any(|p| p.by_value) {
            self.used.push(Feature::ByValueCalls);
        }
        let path = match (self.inner, callee.inner) {
            (false, true) => format!("inner::{}", callee.name),
            (true, false) => format!("super::{}", callee.name),
            _ => callee.name.clone(),
        };
        if self.inner != callee.inner {
            self.used.push(Feature::PathCalls);
        }
        Some(format!("{path}{turbofish}({})", args.join(", ")))
    }

    fn cmp_op(&mut self) -> &'static str {
        ["<", ">", "<=", ">="]
            .choose(&mut self.rng)
            .expect("not empty")
    }

    fn cond(&mut self, depth: usize) -> String {
        self.in_cond += 1;
        let c = self.cond_inner(depth);
        self.in_cond -= 1;
        c
    }

    fn cond_inner(&mut self, depth: usize) -> String {
        let r = self.rng.gen_range(0..100);
        if depth > 0 && r < 20 && self.p(Feature::Logic, 0.9) {
            let (a, b) = (self.cond(depth - 1), self.cond(depth - 1));
            return match r % 3 {
                0 => format!("{a} && {b}"),
                1 => format!("{a} || {b}"),
                _ => format!("!({a})"),
            };
        }
        if r >= 70 && self.on.has(Feature::Bools) {
            let bools: Vec<String> = (self.visible().into_iter())
                .filter(|&k| matches!(self.scope[k].kind, Kind::Bool))
                .filter(|&k| !(self.immutable_only && self.scope[k].mutable))
                .map(|k| self.scope[k].name.clone())
                .collect();
            if let Some(b) = bools.choose(&mut self.rng).cloned() {
                self.used.push(Feature::Bools);
                return match self.rng.gen_range(0..3) {
                    0 => b,
                    1 => format!("!{b}"),
                    _ => {
                        let c = self.cond(0);
                        format!("({b} == ({c}))")
                    }
                };
            }
        }
        if r < 30 && !self.float_consts.is_empty() && self.p(Feature::ConstCond, 0.9) {
            let (k, _) = self
                .float_consts
                .choose(&mut self.rng)
                .cloned()
                .expect("not empty");
            let e = tame(self.expr(1));
            let op = self.cmp_op();
            return format!("{} {op} {k}", e.s);
        }
        if r < 36 && self.p(Feature::CondIf, 0.9) {
            let c = self.cond(0);
            let (a, b) = (tame(self.expr(1)), tame(self.expr(1)));
            let t = self.literal();
            return format!("(if {c} {{ {} }} else {{ {} }}) > {}", a.s, b.s, t.s);
        }
        if r < 42 && self.on.has(Feature::CondCall) {
            let e = self.call(1);
            if let Some(e) = e {
                self.used.push(Feature::CondCall);
                let t = self.literal();
                let op = self.cmp_op();
                return format!("{} {op} {}", e.s, t.s);
            }
        }
        if r < 52 {
            let ints: Vec<(String, Option<usize>)> = self
                .visible()
                .into_iter()
                .filter_map(|k| match self.scope[k].kind {
                    Kind::Index(max) => Some((self.scope[k].name.clone(), Some(max))),
                    Kind::Counter => Some((self.scope[k].name.clone(), None)),
                    _ => None,
                })
                .collect();
            if let Some((name, max)) = ints.choose(&mut self.rng).cloned() {
                let k = self.rng.gen_range(0..=max.unwrap_or(3).max(1));
                let op = *["<", ">", "==", "!=", ">="]
                    .choose(&mut self.rng)
                    .expect("not empty");
                return format!("{name} {op} {k}");
            }
        }
        let a = tame(self.expr(2));
        let op = self.cmp_op();
        let b = if self.coin(0.5) {
            self.literal()
        } else {
            tame(self.expr(1))
        };
        format!("{} {op} {}", a.s, b.s)
    }

    /// A block of one to `max` statements in a new scope.
    fn block(&mut self, max: usize) -> Vec<Stmt> {
        let (mark, frozen) = (self.scope.len(), self.frozen.len());
        self.nesting += 1;
        let mut out = Vec::new();
        let n = self.rng.gen_range(1..=max);
        for k in 0..n {
            if k > 0 && self.budget == 0 {
                break;
            }
            self.budget = self.budget.saturating_sub(1);
            self.stmt(&mut out, false);
        }
        self.nesting -= 1;
        self.scope.truncate(mark);
        // Arrays a pattern borrowed in the block (`let [a, b] = &h;`) may be written again.
        self.frozen.truncate(frozen);
        out
    }

    fn declare(&mut self, name: &str, kind: Kind, mutable: bool, mag: f64) {
        self.scope.push(Var {
            name: name.into(),
            kind,
            mutable,
            mag,
            depth: self.loops,
        });
    }

    /// Mutable float variables that may be assigned here.
    fn assignable(&self, outer_only: bool) -> Vec<usize> {
        self.visible()
            .into_iter()
            .filter(|&k| {
                let v = &self.scope[k];
                v.mutable
                    && matches!(v.kind, Kind::Float)
                    && !self.frozen.contains(&v.name)
                    && (!outer_only || v.depth < self.loops)
            })
            .collect()
    }

    /// `v op= rhs` for the variable (or element) at `slot`, with a right-hand side that keeps
    /// the magnitude moderate even when the assignment repeats in a loop.
    fn update(&mut self, slot: usize, place: String) -> Stmt {
        let reps = self.repeats(self.scope[slot].depth);
        let old = self.scope[slot].mag;
        let compound = self.on.has(Feature::Compound);
        let self_read = self.on.has(Feature::SelfRead);
        let (op, value, mag) = match self.rng.gen_range(0..12) {
            // Linear in the old value with a factor below 1 (bounded when it repeats), or
            // its square scaled down where it does not repeat.
            10 if self_read => {
                self.used.push(Feature::SelfRead);
                let e = self.bounded(1);
                let (a, b) = (self.rng.gen_range(1..4), self.rng.gen_range(1..4));
                let value = match self.rng.gen_range(0..3) {
                    0 => format!("0.{a} * {place} - {place} * 0.{b} + {}", e.s),
                    1 => format!("{place} * 0.{a} + (0.{b} * {place} + {}) * 0.5", e.s),
                    _ => format!("-(0.{a} * {place}) + {} - {place} / 4.0", e.s),
                };
                ("=", value, old.max(4.0))
            }
            11 if self_read && compound && reps <= 1.0 => {
                self.used.push(Feature::SelfRead);
                let e = self.bounded(1);
                let value = format!("0.1 * {place} * {place} + 0.2 * {place} + {}", e.s);
                ("+=", value, old * (1.2 + 0.1 * old) + 1.6)
            }
            0..3 if compound => {
                let e = if reps > 1.0 {
                    self.bounded(2)
                } else {
                    tame(self.expr(2))
                };
                let op = if self.coin(0.5) { "+=" } else { "-=" };
                (op, e.s, old + reps * e.mag)
            }
            3..5 if compound => {
                let e = self.bounded(1);
                (
                    "*=",
                    format!("(1.0 + 0.1 * {})", e.s),
                    old * 1.16f64.powf(reps),
                )
            }
            5 if compound => {
                let e = self.operand(1);
                ("/=", format!("({}.cos() + 2.0)", e.s), old)
            }
            _ => {
                let e = if reps > 1.0 {
                    self.bounded(2)
                } else {
                    tame(self.expr(2))
                };
                if place.contains('[') {
                    ("=", e.s, old.max(e.mag))
                } else {
                    ("=", e.s, e.mag)
                }
            }
        };
        if op != "=" {
            self.used.push(Feature::Compound);
        }
        self.scope[slot].mag = mag.min(1e6);
        Stmt::Assign {
            place,
            op,
            value: value.clone(),
        }
    }

    /// `let (a, mut b) = (e1, e2);`, or, with two assignable floats, the simultaneous
    /// `(a, b) = (b * 0.5 + e, a * 0.5);`, which reads both before it writes either.
    fn destructure(&mut self, out: &mut Vec<Stmt>) {
        if let Some(stmt) = self.tuple_call_let() {
            out.push(stmt);
            return;
        }
        if self.on.has(Feature::Patterns) && self.side.gen_bool(0.5) {
            self.used.push(Feature::Patterns);
            if self.side.gen_bool(0.5) {
                out.push(self.sin_cos_let());
                return;
            }
            if self.side.gen_bool(0.3)
                && let Some(stmts) = self.reference_let()
            {
                out.extend(stmts);
                return;
            }
            if let Some(stmt) = self.array_pattern_let() {
                out.push(stmt);
                return;
            }
        }
        let slots = self.assignable(false);
        if slots.len() >= 2 && self.coin(0.5) {
            let mut pick = slots.clone();
            pick.shuffle(&mut self.rng);
            let (ka, kb) = (pick[0], pick[1]);
            let (a, b) = (self.scope[ka].name.clone(), self.scope[kb].name.clone());
            let e = self.bounded(1);
            let (ma, mb) = (self.scope[ka].mag, self.scope[kb].mag);
            self.scope[ka].mag = (0.5 * mb + e.mag).min(1e6);
            self.scope[kb].mag = (0.5 * ma).min(1e6);
            out.push(Stmt::Assign {
                place: format!("({a}, {b})"),
                op: "=",
                value: format!("({b} * 0.5 + {}, {a} * 0.5)", e.s),
            });
            return;
        }
        let (e1, e2) = (tame(self.expr(2)), tame(self.expr(2)));
        // Bound to one name and read by field (`u.0`, `u.1`), sometimes with its type.
        if self.side.gen_bool(0.25) {
            let u = self.fresh("u");
            self.declare(&format!("{u}.0"), Kind::Float, false, e1.mag);
            self.declare(&format!("{u}.1"), Kind::Float, false, e2.mag);
            out.push(Stmt::Let {
                name: u,
                mutable: false,
                ty: self.side.gen_bool(0.3).then(|| "($F, $F)".to_string()),
                value: format!("({}, {})", typed(&e1), typed(&e2)),
                recompute: false,
                record: false,
            });
            return;
        }
        let (a, b) = (self.fresh("u"), self.fresh("u"));
        let mutable = self.coin(0.5);
        let m = if mutable { "mut " } else { "" };
        out.push(Stmt::Let {
            name: format!("({a}, {m}{b})"),
            mutable: false,
            ty: None,
            value: format!("({}, {})", typed(&e1), typed(&e2)),
            recompute: false,
            record: false,
        });
        self.declare(&a, Kind::Float, false, e1.mag);
        self.declare(&b, Kind::Float, mutable, e2.mag);
    }

    /// `let (s, mut c) = (e).sin_cos();` (sometimes with its type), or `let t = (e).sin_cos();`
    /// read as `t.0` and `t.1`.
    fn sin_cos_let(&mut self) -> Stmt {
        let e = tame(self.expr(2));
        let value = format!("({}).sin_cos()", typed(&e));
        if self.side.gen_bool(0.3) {
            let t = self.fresh("u");
            for k in 0..2 {
                self.declare(&format!("{t}.{k}"), Kind::Float, false, 1.0);
            }
            return Stmt::Let {
                name: t,
                mutable: false,
                ty: None,
                value,
                recompute: false,
                record: false,
            };
        }
        let (s, c) = (self.fresh("u"), self.fresh("u"));
        let mutable = self.side.gen_bool(0.5);
        let m = if mutable { "mut " } else { "" };
        let ty = self.side.gen_bool(0.3).then(|| "($F, $F)".to_string());
        self.declare(&s, Kind::Float, false, 1.0);
        self.declare(&c, Kind::Float, mutable, 1.0);
        Stmt::Let {
            name: format!("({s}, {m}{c})"),
            mutable: false,
            ty,
            value,
            recompute: false,
            record: false,
        }
    }

    /// `let [a, _, mut b] = *v;` (or borrowed, `let [a, b] = v;`, `let [a, b] = &p.w;`, whose
    /// names are references) of an array in scope of at most two dimensions of at most four
    /// (not of a const generic length, which no pattern can name), nested for two: each name
    /// bound to its element.
    fn array_pattern_let(&mut self) -> Option<Stmt> {
        let arrays: Vec<ArraySrc> = (self.arrays().into_iter())
            .filter(|a| {
                (1..=2).contains(&a.dims.len())
                    && a.dims
                        .iter()
                        .all(|d| d.value() <= 4 && !matches!(d, Len::Named(n, _) if n == "N"))
            })
            .collect();
        let src = arrays.choose(&mut self.side)?.clone();
        // A parameter is a reference: `*a`; a local array, a field or a `const` by value.
        // Borrowed, Rust's default binding modes bind the elements as references (`&$F`, read
        // as `(*a)`), which may not be `mut`.
        // Only arrays nothing writes (a mutable local may be written by a loop the generator
        // does not check against borrows).
        let borrowed = src.slot.is_none() && self.side.gen_bool(0.3);
        let value = if src.arg == src.text {
            // A parameter, a reference already: `*a` copies, `a` borrows.
            if borrowed {
                src.text.clone()
            } else {
                format!("*{}", src.text)
            }
        } else if borrowed {
            format!("&{}", src.text)
        } else {
            src.text.clone()
        };
        let mut names = Vec::new();
        let pattern = self.array_pattern(&src.dims, !borrowed, &mut names);
        if names.is_empty() {
            return None;
        }
        if borrowed {
            // Not written while the references live: to the end of the block.
            self.frozen.push(src.text.clone());
        }
        for (name, mutable) in names {
            let kind = if borrowed { Kind::Elem } else { Kind::Float };
            self.declare(&name, kind, mutable, src.mag);
        }
        Some(Stmt::Let {
            name: pattern,
            mutable: false,
            ty: None,
            value,
            recompute: false,
            record: false,
        })
    }

    /// `let r = &a[k];` of an array nothing writes (`k` a literal, or now and then a `usize`
    /// local bound to it just before, `let k = 1;`): a row of a 2-D array, read as `r[j]`, or
    /// an element of a 1-D one, read as `(*r)`; an alias of the place.
    fn reference_let(&mut self) -> Option<Vec<Stmt>> {
        let arrays: Vec<ArraySrc> = (self.arrays().into_iter())
            .filter(|a| {
                a.slot.is_none()
                    && (1..=2).contains(&a.dims.len())
                    && (a.dims.iter()).all(|d| !matches!(d, Len::Named(n, _) if n == "N"))
            })
            .collect();
        let src = arrays.choose(&mut self.side)?.clone();
        let k = self.side.gen_range(0..src.dims[0].value());
        let mut out = Vec::new();
        let index = match self.side.gen_bool(0.4) {
            true => {
                let name = self.fresh("k");
                out.push(Stmt::Let {
                    name: name.clone(),
                    mutable: false,
                    ty: Some("usize".into()),
                    value: format!("{k}"),
                    recompute: false,
                    record: false,
                });
                name
            }
            false => k.to_string(),
        };
        let r = self.fresh("u");
        // Not written while the reference lives: to the end of the block.
        self.frozen.push(src.text.clone());
        if src.dims.len() == 1 {
            self.declare(&r, Kind::Elem, false, src.mag);
        } else {
            for j in 0..src.dims[1].value() {
                self.declare(&format!("{r}[{j}]"), Kind::Float, false, src.mag);
            }
        }
        out.push(Stmt::Let {
            name: r,
            mutable: false,
            ty: None,
            value: format!("&{}[{index}]", src.text),
            recompute: false,
            record: false,
        });
        Some(out)
    }

    /// The pattern of an array of `dims`: a fresh name (sometimes `mut`, if `may_mut`) or `_`
    /// per element.
    fn array_pattern(
        &mut self,
        dims: &[Len],
        may_mut: bool,
        names: &mut Vec<(String, bool)>,
    ) -> String {
        let Some((len, rest)) = dims.split_first() else {
            if self.side.gen_bool(0.25) {
                return "_".into();
            }
            let (name, mutable) = (self.fresh("u"), may_mut && self.side.gen_bool(0.3));
            names.push((name.clone(), mutable));
            return if mutable { format!("mut {name}") } else { name };
        };
        let elems: Vec<String> = (0..len.value())
            .map(|_| self.array_pattern(rest, may_mut, names))
            .collect();
        format!("[{}]", elems.join(", "))
    }

    /// In the function under test, `let (a, mut b) = g(..);` (or `let (_, b) = ..`, or
    /// `let u = g(..);` read as `u.0` and `u.1`) of a helper returning a tuple, if one can be
    /// called here.
    fn tuple_call_let(&mut self) -> Option<Stmt> {
        let callee = self.tuple_callee()?;
        let text = self.call_text(&callee, 1)?;
        self.calls_nested = true;
        self.used.push(Feature::TupleCalls);
        if self.side.gen_bool(0.3) {
            let u = self.fresh("u");
            for k in 0..2 {
                self.declare(&format!("{u}.{k}"), Kind::Float, false, 6.0);
            }
            return Some(Stmt::Let {
                name: u,
                mutable: false,
                ty: None,
                value: text,
                recompute: false,
                record: false,
            });
        }
        let (a, b) = (self.fresh("u"), self.fresh("u"));
        let mutable = self.side.gen_bool(0.5);
        let skip = self.side.gen_bool(0.3);
        let m = if mutable { "mut " } else { "" };
        let first = if skip { "_".to_string() } else { a.clone() };
        let stmt = Stmt::Let {
            name: format!("({first}, {m}{b})"),
            mutable: false,
            ty: None,
            value: text,
            recompute: false,
            record: false,
        };
        if !skip {
            self.declare(&a, Kind::Float, false, 6.0);
        }
        self.declare(&b, Kind::Float, mutable, 6.0);
        Some(stmt)
    }

    /// A helper returning a tuple that the function under test may call here.
    fn tuple_callee(&mut self) -> Option<Callee> {
        if !self.in_top
            || self.in_cond > 0
            || !self.on.has(Feature::TupleCalls)
            || !self.side.gen_bool(0.7)
        {
            return None;
        }
        let tuples: Vec<Callee> = (self.callees.iter())
            .filter(|c| matches!(c.ret, Ty::Tuple(_)))
            .cloned()
            .collect();
        tuples.choose(&mut self.side).cloned()
    }

    /// An assignment to a mutable array element.
    fn elem_update(&mut self) -> Option<Stmt> {
        let arrays: Vec<ArraySrc> = self
            .arrays()
            .into_iter()
            .filter(|a| a.slot.is_some())
            .collect();
        let src = arrays.choose(&mut self.rng)?.clone();
        let slot = src.slot.expect("filtered");
        let place = self.elem(&src);
        self.used.push(Feature::ElemAssign);
        if self.coin(0.15) {
            let ints: Vec<String> = self
                .visible()
                .into_iter()
                .filter(|&k| matches!(self.scope[k].kind, Kind::Index(_)))
                .map(|k| self.scope[k].name.clone())
                .collect();
            if let Some(i) = ints.choose(&mut self.rng)
                && self.on.has(Feature::IntCasts)
            {
                self.scope[slot].mag = self.scope[slot].mag.max(6.0);
                return Some(Stmt::Assign {
                    place,
                    op: "=",
                    value: format!("({i} as $F) * 0.5"),
                });
            }
            if self.p(Feature::MixedCasts, 0.5) {
                self.mixed = true;
                let e = self.bounded(1);
                self.scope[slot].mag = self.scope[slot].mag.max(1.6);
                return Some(Stmt::Assign {
                    place,
                    op: "=",
                    value: format!("{} as $H as $F", e.s),
                });
            }
        }
        Some(self.update(slot, place))
    }

    fn stmt(&mut self, out: &mut Vec<Stmt>, _top: bool) {
        let nest = self.nesting < MAX_NESTING;
        if self.on.has(Feature::ArrayFns) && self.side.gen_bool(0.05) && self.array_fn(out) {
            return;
        }
        if self.on.has(Feature::Closures) && self.side.gen_bool(0.05) {
            self.closure_let(out);
            return;
        }
        if self.on.has(Feature::Rearrange) && self.side.gen_bool(0.05) && self.rearrange(out) {
            return;
        }
        if self.loops == 0 && !self.slices().is_empty() && self.p(Feature::Slices, 0.2) {
            self.slice_loop(out);
            return;
        }
        let r = self.rng.gen_range(0..100);
        match r {
            0..22 => {
                let mutable = self.coin(0.5);
                let e = tame(self.expr(3));
                let name = self.fresh("v");
                self.declare(&name, Kind::Float, mutable, e.mag);
                let record = !mutable && self.record();
                out.push(Stmt::Let {
                    name,
                    mutable,
                    ty: (!e.typed || self.coin(0.1)).then(|| "$F".into()),
                    value: e.s,
                    recompute: false,
                    record,
                });
            }
            22..25 if self.p(Feature::Destructure, 0.6) => self.destructure(out),
            22..36 => {
                let slots = self.assignable(false);
                if let Some(&slot) = slots.choose(&mut self.rng) {
                    let place = self.scope[slot].name.clone();
                    let s = self.update(slot, place);
                    out.push(s);
                } else {
                    self.local_array(out);
                }
            }
            36..40 if self.p(Feature::Shadowing, 0.8) => {
                let captured = self.captured();
                let floats: Vec<usize> = self
                    .visible()
                    .into_iter()
                    .filter(|&k| matches!(self.scope[k].kind, Kind::Float))
                    // `u.0` of a tuple bound to one name, `r[1]` of a borrowed row's element
                    // (`let r = &a[1];`), are no names a `let` binds (seed 137, p109).
                    .filter(|&k| !self.scope[k].name.contains(['.', '[']))
                    // A closure in scope reads the name it has (the macro refuses a call then).
                    .filter(|&k| !captured.contains(&self.scope[k].name))
                    .collect();
                if let Some(&k) = floats.choose(&mut self.rng) {
                    let (name, mag) = (self.scope[k].name.clone(), self.scope[k].mag);
                    let e = tame(self.expr(2));
                    let v = tame(Ex::new(format!("({name} * {})", e.s), mag * e.mag));
                    self.declare(&name, Kind::Float, false, v.mag);
                    out.push(Stmt::Let {
                        name,
                        mutable: false,
                        ty: None,
                        value: v.s,
                        recompute: false,
                        record: false,
                    });
                }
            }
            40..47 if self.on.has(Feature::LocalArrays) => self.local_array(out),
            47..55 => {
                if let Some(s) = self.elem_update() {
                    out.push(s);
                }
            }
            55..64 if nest && self.p(Feature::IfStmt, 0.9) => {
                let mut arms = Vec::new();
                let n = if self.coin(0.3) { 2 } else { 1 };
                for _ in 0..n {
                    let c = self.cond(1);
                    let b = self.block(3);
                    arms.push((c, b));
                }
                let els = self.coin(0.5).then(|| self.block(2));
                out.push(Stmt::If { arms, els });
            }
            64..68 if self.loops == 0 && self.p(Feature::Invariant, 0.6) => {
                self.invariant_nest(out)
            }
            64..80 if nest => self.for_loop(out),
            80..84 if nest => self.bounded_loop(out),
            84..88 if self.on.has(Feature::Calls) => self.call_let(out),
            88..92 if self.p(Feature::Recompute, 0.8) => {
                self.immutable_only = true;
                let e = tame(self.expr(2));
                self.immutable_only = false;
                let name = self.fresh("r");
                self.declare(&name, Kind::Float, false, e.mag);
                out.push(Stmt::Let {
                    name,
                    mutable: false,
                    ty: (!e.typed).then(|| "$F".into()),
                    value: e.s,
                    recompute: true,
                    record: false,
                });
            }
            92..95 if self.return_here() && self.p(Feature::EarlyReturn, 0.8) => {
                if self.loops > 0 {
                    self.used.push(Feature::LoopExits);
                }
                let c = self.cond(1);
                let mut body = if self.coin(0.5) {
                    self.block(2)
                } else {
                    Vec::new()
                };
                let value = match self.ret.clone() {
                    Ty::Tuple(items) => {
                        let parts: Vec<String> =
                            items.iter().map(|_| tame(self.expr(2)).s).collect();
                        format!("({})", parts.join(", "))
                    }
                    Ty::Array(..) => self
                        .out_array
                        .clone()
                        .expect("array results have an output array"),
                    _ => tame(self.expr(2)).s,
                };
                body.push(Stmt::Return(value));
                out.push(Stmt::If {
                    arms: vec![(c, body)],
                    els: None,
                });
            }
            95..100 if self.loops > 0 && self.p(Feature::Break, 0.8) => {
                let c = self.cond(1);
                let s = match (self.coin(0.5), self.outer_label()) {
                    (true, Some(l)) => Stmt::BreakTo(l),
                    (false, Some(l)) => Stmt::ContinueTo(l),
                    (true, None) => Stmt::Break,
                    (false, None) => Stmt::Continue,
                };
                out.push(Stmt::If {
                    arms: vec![(c, vec![s])],
                    els: None,
                });
            }
            _ if self.p(Feature::Bools, 0.5) => self.bool_stmt(out),
            _ => {
                if self.p(Feature::IntLocals, 0.3) {
                    let name = self.fresh("c");
                    self.declare(&name, Kind::Counter, true, 0.0);
                    out.push(Stmt::Let {
                        name,
                        mutable: true,
                        ty: None,
                        value: "0".into(),
                        recompute: false,
                        record: false,
                    });
                } else {
                    let counters: Vec<String> = self
                        .visible()
                        .into_iter()
                        .filter(|&k| matches!(self.scope[k].kind, Kind::Counter))
                        .map(|k| self.scope[k].name.clone())
                        .collect();
                    if let Some(c) = counters.choose(&mut self.rng) {
                        out.push(Stmt::Assign {
                            place: c.clone(),
                            op: "+=",
                            value: "1".into(),
                        });
                    }
                }
            }
        }
    }

    /// The parameter `flag: bool`, in scope, its value in the harness drawn here.
    fn flag_param(&mut self) -> Param {
        let value = self.rng.gen_range(0..2);
        self.declare("flag", Kind::Bool, false, 0.0);
        Param {
            name: "flag".into(),
            ty: Ty::Bool,
            by_value: true,
            fixed: Some(vec![value]),
        }
    }

    /// A `bool` local, `let b = cond;` or `let mut b = false;`, or an update of a mutable one:
    /// `b = b || cond;`, `b = !b;`, `b = cond;`.
    fn bool_stmt(&mut self, out: &mut Vec<Stmt>) {
        let mutable: Vec<String> = (self.visible().into_iter())
            .filter(|&k| matches!(self.scope[k].kind, Kind::Bool) && self.scope[k].mutable)
            .map(|k| self.scope[k].name.clone())
            .collect();
        if let Some(b) = mutable.choose(&mut self.rng).cloned()
            && self.coin(0.6)
        {
            let c = self.cond(0);
            let value = match self.rng.gen_range(0..4) {
                0 => format!("{b} || {c}"),
                1 => format!("{b} && !({c})"),
                2 => format!("!{b}"),
                _ => c,
            };
            out.push(Stmt::Assign {
                place: b,
                op: "=",
                value,
            });
            return;
        }
        let name = self.fresh("b");
        let (mutable, value) = match self.rng.gen_range(0..3) {
            0 => (true, "false".to_string()),
            1 => (true, self.cond(1)),
            _ => (false, self.cond(1)),
        };
        self.declare(&name, Kind::Bool, mutable, 0.0);
        out.push(Stmt::Let {
            name,
            mutable,
            ty: self.coin(0.3).then(|| "bool".into()),
            value,
            recompute: false,
            record: false,
        });
    }

    /// A local array, often filled by a loop right after.
    fn local_array(&mut self, out: &mut Vec<Stmt>) {
        if !self.on.has(Feature::LocalArrays) {
            return;
        }
        self.used.push(Feature::LocalArrays);
        let name = self.fresh("h");
        if self.coin(0.4) {
            let len = self.pick_len();
            let items: Vec<Ex> = (0..len.value()).map(|_| tame(self.expr(2))).collect();
            let mag = items.iter().map(|e| e.mag).fold(0.0, f64::max);
            let typed = items.iter().any(|e| e.typed);
            let ty = (!typed).then(|| Ty::floats(std::slice::from_ref(&len)).text());
            let mutable = self.coin(0.5);
            let text: Vec<String> = items.into_iter().map(|e| e.s).collect();
            self.declare(
                &name,
                Kind::Array {
                    dims: vec![len],
                    by_ref: false,
                },
                mutable,
                mag,
            );
            out.push(Stmt::Let {
                name,
                mutable,
                ty,
                value: format!("[{}]", text.join(", ")),
                recompute: false,
                record: false,
            });
            return;
        }
        let mut dims = vec![self.pick_len()];
        if self.p(Feature::Arrays2d, 0.3) {
            dims.insert(0, self.pick_len());
            if self.coin(0.3) {
                dims.insert(0, Len::Lit(2));
            }
        }
        self.declare(
            &name,
            Kind::Array {
                dims: dims.clone(),
                by_ref: false,
            },
            true,
            0.0,
        );
        out.push(Stmt::Let {
            name: name.clone(),
            mutable: true,
            ty: Some(Ty::floats(&dims).text()),
            value: zeros(&dims),
            recompute: false,
            record: false,
        });
        if self.nesting < MAX_NESTING && self.on.has(Feature::ForRange) && self.coin(0.8) {
            // Fill it, often only in part: one loop per dimension.
            let slot = self.scope.len() - 1;
            let mark = self.scope.len();
            let mut idx = Vec::new();
            for len in &dims {
                let i = self.fresh("i");
                let end = if self.coin(0.7) {
                    len.clone()
                } else {
                    Len::Lit(self.rng.gen_range(1..=len.value()))
                };
                self.enter_loop(&i, end.value() - 1, end.value() as f64);
                idx.push((i, end));
            }
            let place = format!(
                "{name}{}",
                idx.iter()
                    .map(|(i, _)| format!("[{i}]"))
                    .collect::<String>()
            );
            let whole = dims.len() == 1 && idx[0].1 == dims[0];
            let fill = if whole {
                self.elementwise(slot, &idx[0].0, &dims[0], &place)
            } else {
                None
            };
            let fill = fill.unwrap_or_else(|| self.update(slot, place));
            let mut body = vec![fill];
            for (i, end) in idx.into_iter().rev() {
                self.leave_loop();
                body = vec![Stmt::For {
                    label: None,
                    checkpoint: None,
                    pat: i,
                    iter: format!("0..{}", end.text()),
                    body,
                }];
            }
            self.scope.truncate(mark);
            out.extend(body);
        }
    }

    /// `h[i] = a[i] - x`: one `+ - *` or a negation of parameters (arrays of `h`'s length read at
    /// `i`, floats) and literals, the shape the plan recomputes instead of recording.
    fn elementwise(&mut self, slot: usize, i: &str, len: &Len, place: &str) -> Option<Stmt> {
        if !self.p(Feature::Elementwise, 0.5) {
            return None;
        }
        let mut sources: Vec<(String, f64)> = Vec::new();
        for k in self.visible() {
            let v = &self.scope[k];
            if v.depth != 0 || v.mutable {
                continue;
            }
            match &v.kind {
                Kind::Array { dims, .. } if dims[..] == [len.clone()] => {
                    sources.push((format!("{}[{i}]", v.name), v.mag));
                }
                Kind::Float => sources.push((v.name.clone(), v.mag)),
                _ => {}
            }
        }
        if sources.is_empty() {
            return None;
        }
        let operand = |g: &mut Self| match g.coin(0.2) {
            true => ("0.75".to_string(), 0.75),
            false => sources.choose(&mut g.rng).expect("not empty").clone(),
        };
        let (a, ma) = operand(self);
        let (b, mb) = operand(self);
        let (value, mag) = match self.rng.gen_range(0..4) {
            0 => (format!("{a} + {b}"), ma + mb),
            1 => (format!("{a} - {b}"), ma + mb),
            2 => (format!("{a} * {b}"), ma * mb),
            _ => (format!("-{a}"), ma),
        };
        self.scope[slot].mag = mag.min(1e6);
        // Mostly read only from here on, so the plan's rule applies (a later write records it).
        if self.coin(0.7) {
            self.scope[slot].mutable = false;
        }
        Some(Stmt::Assign {
            place: place.to_string(),
            op: "=",
            value,
        })
    }

    /// A mutable local array rearranged in place: `h.swap(i, j)`, `h.reverse()`, `h.fill(e)`,
    /// a 2-D array's row `h[i].swap(j, k)` or `h[i].reverse()`, or `core::mem::swap(&mut h,
    /// &mut g)` with another of its shape; `false` when there is none.
    fn rearrange(&mut self, out: &mut Vec<Stmt>) -> bool {
        let arrays: Vec<ArraySrc> = (self.arrays().into_iter())
            .filter(|a| a.slot.is_some() && !a.field)
            .collect();
        let Some(src) = arrays.choose(&mut self.side).cloned() else {
            return false;
        };
        let (a, len) = (&src.text, src.dims[0].value());
        let e = match self.side.gen_range(0..5) {
            // A row of a 2-D array at an index that may be computed (`h[(k + 1) % 3]`).
            4 if src.dims.len() == 2 => {
                let r = self.index(len);
                match self.side.gen_bool(0.5) {
                    true => {
                        let cols = src.dims[1].value();
                        let (i, j) = (self.index(cols), self.index(cols));
                        format!("{a}[{r}].swap({i}, {j})")
                    }
                    false => format!("{a}[{r}].reverse()"),
                }
            }
            0 | 4 => {
                let (i, j) = (self.index(len), self.index(len));
                format!("{a}.swap({i}, {j})")
            }
            1 => format!("{a}.reverse()"),
            2 if src.dims.len() == 1 => {
                // Not read in its own `fill`'s argument: the array is borrowed `&mut` there
                // (seed 127, p154).
                self.hidden.push(src.text.clone());
                let v = within(self.expr(1), src.mag.max(1.0));
                self.hidden.pop();
                let slot = src.slot.expect("filtered");
                self.scope[slot].mag = self.scope[slot].mag.max(v.mag);
                format!("{a}.fill({})", typed(&v))
            }
            _ => {
                let twins: Vec<&ArraySrc> = (arrays.iter())
                    .filter(|b| b.text != src.text && b.dims == src.dims)
                    .collect();
                let Some(b) = twins.choose(&mut self.side) else {
                    return false;
                };
                let slot = b.slot.expect("filtered");
                // Each takes the other's values: both may now be as large as either was.
                let mag = src.mag.max(b.mag);
                self.scope[slot].mag = mag;
                self.scope[src.slot.expect("filtered")].mag = mag;
                format!("core::mem::swap(&mut {a}, &mut {})", b.text)
            }
        };
        self.used.push(Feature::Rearrange);
        out.push(Stmt::Expr(e));
        true
    }

    /// The names the closures in scope read.
    fn captured(&self) -> Vec<String> {
        (self.visible().into_iter())
            .flat_map(|k| match &self.scope[k].kind {
                Kind::Closure { captures, .. } => captures.clone(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// `let c = |p: $F, q: $F| ..;`: a body of one expression, or a block binding a local
    /// first, of the parameters (each within `TAME`) and the immutable variables in scope.
    fn closure_let(&mut self, out: &mut Vec<Stmt>) {
        self.used.push(Feature::Closures);
        let arity = self.side.gen_range(1..=2);
        let mark = self.scope.len();
        let params: Vec<String> = (0..arity).map(|_| self.fresh("p")).collect();
        for p in &params {
            self.declare(p, Kind::Float, false, TAME);
        }
        let was = std::mem::replace(&mut self.immutable_only, true);
        // A bounded loop's counter is declared immutable but is incremented: the closure's
        // borrow would keep it from changing (seed 123, p159). An enum only passed on, passed
        // only in a closure never called, is a parameter the function does not use, which
        // the macro takes for a struct (seed 128, p008: "`E: Default` is not satisfied").
        let hidden = self.hidden.len();
        let counters: Vec<String> = (self.visible().into_iter())
            .filter(|&k| matches!(self.scope[k].kind, Kind::Counter | Kind::PassedEnum))
            .map(|k| self.scope[k].name.clone())
            .collect();
        self.hidden.extend(counters);
        let a = tame(self.expr(2));
        let body = match self.side.gen_bool(0.4) {
            true => {
                let t = self.fresh("t");
                self.declare(&t, Kind::Float, false, a.mag);
                let b = tame(self.expr(2));
                let p = &params[self.side.gen_range(0..arity)];
                let e = Ex::new(format!("{t} * {} + {p}", b.s), a.mag * b.mag + TAME);
                let ty = if a.typed { "" } else { ": $F" };
                Ex::new(format!("{{ let {t}{ty} = {}; {} }}", a.s, e.s), e.mag)
            }
            false => a,
        };
        self.immutable_only = was;
        self.hidden.truncate(hidden);
        self.scope.truncate(mark);
        // The names of the scope its text reads (an over-estimate: a name in a field or a
        // method is taken too).
        let words: Vec<&str> = body
            .s
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .collect();
        let captures: Vec<String> = (self.visible().into_iter())
            .map(|k| self.scope[k].name.clone())
            .filter(|n| words.contains(&n.as_str()))
            .collect();
        let name = self.fresh("c");
        let list: Vec<String> = params.iter().map(|p| format!("{p}: $F")).collect();
        let value = format!("|{}| {}", list.join(", "), typed(&body));
        self.declare(&name, Kind::Closure { arity, captures }, false, body.mag);
        out.push(Stmt::Let {
            name,
            mutable: false,
            ty: None,
            value,
            recompute: false,
            record: false,
        });
    }

    /// A call of a closure in scope, `c(x + 1.0, a[i])`, each argument within `TAME`.
    fn closure_call(&mut self, d: usize) -> Option<Ex> {
        let closures: Vec<(String, usize, f64)> = (self.visible().into_iter())
            .filter_map(|k| match &self.scope[k].kind {
                Kind::Closure { arity, .. } => {
                    Some((self.scope[k].name.clone(), *arity, self.scope[k].mag))
                }
                _ => None,
            })
            .collect();
        let (name, arity, mag) = closures.choose(&mut self.side).cloned()?;
        self.used.push(Feature::Closures);
        let args: Vec<String> = (0..arity).map(|_| within(self.expr(d), TAME).s).collect();
        Some(Ex::new(format!("{name}({})", args.join(", ")), mag))
    }

    /// `let m = a.map(|v| ..);` of a one-dimensional array in scope (a local or a parameter),
    /// or `let m: [$F; L] = core::array::from_fn(|i| ..);` of its length; `false` when there
    /// is none.
    fn array_fn(&mut self, out: &mut Vec<Stmt>) -> bool {
        let sources: Vec<ArraySrc> = (self.arrays().into_iter())
            .filter(|a| !a.field && a.dims.len() == 1)
            .collect();
        let Some(src) = sources.choose(&mut self.side).cloned() else {
            return false;
        };
        self.used.push(Feature::ArrayFns);
        let len = &src.dims[0];
        let mark = self.scope.len();
        let from_fn = self.side.gen_bool(0.4);
        let param = self.fresh(if from_fn { "i" } else { "v" });
        match from_fn {
            true => self.declare(&param, Kind::Index(len.value() - 1), false, 0.0),
            false => self.declare(&param, Kind::Float, false, src.mag),
        }
        let e = tame(self.bounded(2));
        self.scope.truncate(mark);
        let name = self.fresh("m");
        let (value, ty) = match from_fn {
            true => (
                format!("core::array::from_fn(|{param}| {})", e.s),
                Some(format!("[$F; {}]", len.text())),
            ),
            // A closure of literals alone has no float type of its own: the `let` gives it.
            false => (
                format!("{}.map(|{param}| {})", src.text, e.s),
                // Nor an untyped call's result (seed 123, p145: "`map` builds an array whose
                // type the macro cannot see here").
                (!e.typed || self.side.gen_bool(0.3) || self.untyped.contains(&src.text))
                    .then(|| format!("[$F; {}]", len.text())),
            ),
        };
        self.declare(
            &name,
            Kind::Array {
                dims: vec![len.clone()],
                by_ref: false,
            },
            false,
            e.mag,
        );
        out.push(Stmt::Let {
            name,
            mutable: false,
            ty,
            value,
            recompute: false,
            record: false,
        });
        true
    }

    /// `let y: [$F; L] = g(..);` for a helper returning an array.
    fn call_let(&mut self, out: &mut Vec<Stmt>) {
        let arrays: Vec<Callee> = self
            .callees
            .iter()
            .filter(|c| matches!(c.ret, Ty::Array(..)))
            .cloned()
            .collect();
        let Some(callee) = arrays.choose(&mut self.rng).cloned() else {
            if let Some(e) = self.call(1) {
                let name = self.fresh("v");
                self.declare(&name, Kind::Float, false, e.mag);
                out.push(Stmt::Let {
                    name,
                    mutable: false,
                    ty: None,
                    value: e.s,
                    recompute: false,
                    record: false,
                });
            }
            return;
        };
        let Some(text) = self.call_text(&callee, 1) else {
            return;
        };
        self.used.push(Feature::ArrayCalls);
        let recompute = self.p(Feature::Recompute, 0.2);
        let record = !recompute && self.record();
        let untyped =
            self.seen_args && !recompute && !record && self.p(Feature::ContractCalls, 0.5);
        let name = self.fresh("y");
        if untyped {
            self.untyped.push(name.clone());
        }
        self.declare(
            &name,
            Kind::Array {
                dims: dims_of(&callee.ret),
                by_ref: false,
            },
            false,
            6.0,
        );
        out.push(Stmt::Let {
            name,
            mutable: false,
            ty: (!untyped).then(|| callee.ret.text()),
            value: text,
            recompute,
            record,
        });
    }

    /// The slice parameters in scope: name and length.
    fn slices(&self) -> Vec<(String, usize)> {
        (self.visible().into_iter())
            .filter_map(|k| match self.scope[k].kind {
                Kind::Slice { len } => Some((self.scope[k].name.clone(), len)),
                _ => None,
            })
            .collect()
    }

    /// A loop over a slice's run-time length whose iterations share only a fresh accumulator:
    /// `for e in xs.iter()`, `for i in 0..xs.len()` (reading `xs[i]`), `.enumerate()` (reading
    /// `i as $F` too) or `xs.iter().zip(ys.iter())`, its body a tamed expression of the element
    /// and of what is in scope, added into (or subtracted from) the accumulator, which is in
    /// scope after the loop.
    fn slice_loop(&mut self, out: &mut Vec<Stmt>) {
        let slices = self.slices();
        let (xs, len) = slices
            .choose(&mut self.rng)
            .cloned()
            .expect("a slice in scope");
        self.used.push(Feature::Slices);
        let acc = self.fresh("acc");
        out.push(Stmt::Let {
            name: acc.clone(),
            mutable: true,
            ty: Some("$F".into()),
            value: "0.0".into(),
            recompute: false,
            record: false,
        });
        let mark = self.scope.len();
        self.enter_loop("", 0, len as f64);
        let (pat, iter) = match self.rng.gen_range(0..4) {
            0 => {
                let e = self.fresh("e");
                self.declare(&e, Kind::Elem, false, PARAM_MAG);
                (e, format!("{xs}.iter(){}", self.window(3)))
            }
            1 => {
                let i = self.fresh("i");
                self.declare(&format!("{xs}[{i}]"), Kind::Float, false, PARAM_MAG);
                (i, format!("0..{xs}.len()"))
            }
            2 => {
                let (i, e) = (self.fresh("i"), self.fresh("e"));
                self.declare(&e, Kind::Elem, false, PARAM_MAG);
                self.declare(
                    &format!("({i} as $F * 0.25)"),
                    Kind::Float,
                    false,
                    0.25 * len as f64,
                );
                (
                    format!("({i}, {e})"),
                    format!("{xs}.iter(){}.enumerate(){}", self.window(3), self.rev()),
                )
            }
            _ => {
                let ys = slices.choose(&mut self.rng).expect("a slice").0.clone();
                let (u, v) = (self.fresh("e"), self.fresh("e"));
                self.declare(&u, Kind::Elem, false, PARAM_MAG);
                self.declare(&v, Kind::Elem, false, PARAM_MAG);
                (
                    format!("({u}, {v})"),
                    format!(
                        "{xs}.iter(){}.zip({ys}.iter(){}){}",
                        self.window(3),
                        self.window(3),
                        self.rev()
                    ),
                )
            }
        };
        let e = tame(self.expr(2));
        // A state carried from step to step (`acc = acc * 0.5 + ..`): a sequential loop, whose
        // steps the tape records into `Vec`s; otherwise independent iterations.
        let carried = self.coin(0.3);
        // A sequential one is recorded into `Vec`s, or reversed under binomial checkpoints.
        let checkpoint = (carried && self.coin(0.4)).then_some(Checkpoint::Binomial(3));
        // Independent iterations whose accumulator is a running maximum or minimum.
        let extremum = !carried && self.on.has(Feature::Kinks) && self.coin(0.3);
        let body = if carried {
            vec![Stmt::Assign {
                place: acc.clone(),
                op: "=",
                value: format!("{acc} * 0.5 + {} * 0.25", e.s),
            }]
        } else if extremum {
            self.used.push(Feature::Kinks);
            let m = if self.coin(0.5) { "max" } else { "min" };
            vec![Stmt::Assign {
                place: acc.clone(),
                op: "=",
                value: format!("{acc}.{m}({} * 0.25)", e.s),
            }]
        } else {
            let op = if self.coin(0.3) { "-=" } else { "+=" };
            vec![Stmt::Assign {
                place: acc.clone(),
                op,
                value: format!("{} * 0.25", e.s),
            }]
        };
        self.leave_loop();
        self.scope.truncate(mark);
        let inner = Stmt::For {
            label: None,
            checkpoint,
            pat,
            iter,
            body,
        };
        let mag = if carried || extremum {
            0.5 * e.mag
        } else {
            0.25 * e.mag * len as f64
        };
        // A sequential loop inside a loop of independent iterations over another run-time
        // length (`outer += acc * 0.5` each): its steps go into the outer loop's step tape.
        if carried && checkpoint_free(&inner) && self.p(Feature::Slices, 0.5) {
            let Some(Stmt::Let { .. }) = out.last() else {
                unreachable!("the accumulator's `let` comes right before the loop")
            };
            let init = out.pop().expect("the accumulator's `let`");
            let outer = self.fresh("acc");
            let ys = slices.choose(&mut self.rng).expect("a slice").0.clone();
            let q = self.fresh("q");
            out.push(Stmt::Let {
                name: outer.clone(),
                mutable: true,
                ty: Some("$F".into()),
                value: "0.0".into(),
                recompute: false,
                record: false,
            });
            out.push(Stmt::For {
                label: None,
                checkpoint: None,
                pat: q,
                iter: format!("0..{ys}.len()"),
                body: vec![
                    init,
                    inner,
                    Stmt::Assign {
                        place: outer.clone(),
                        op: "+=",
                        value: format!("{acc} * 0.5"),
                    },
                ],
            });
            self.declare(&outer, Kind::Float, true, mag * 0.5 * len as f64);
            return;
        }
        out.push(inner);
        self.declare(&acc, Kind::Float, true, mag);
    }

    /// Makes sure a loop has an outer accumulator: declares `let mut s = 0.0;` when none is in
    /// scope.
    fn accumulator(&mut self, out: &mut Vec<Stmt>) {
        if self.assignable(false).is_empty() {
            let name = self.fresh("s");
            self.declare(&name, Kind::Float, true, 0.0);
            out.push(Stmt::Let {
                name,
                mutable: true,
                ty: Some("$F".into()),
                value: "0.0".into(),
                recompute: false,
                record: false,
            });
        }
    }

    /// A loop body: an update of an outer accumulator first, then more statements.
    fn loop_body(&mut self, out: &mut Vec<Stmt>) {
        let slots = self.assignable(true);
        if let Some(&slot) = slots.choose(&mut self.rng) {
            let place = self.scope[slot].name.clone();
            let s = self.update(slot, place);
            out.push(s);
        }
        let more = self.block(3);
        out.extend(more);
    }

    /// GMM's shape (feature `invariant`): a loop over `i` around a nest over the rows `k` of a
    /// 2-D array `p`, whose locals are computed from `p[k]` and `q[k]` (another array of its
    /// shape, or `p`) and from `i` as a float or an element of an array read at `i`; the nest
    /// overwrites and sums into an array `y` (a diagonal, then a triangle), may sum into floats
    /// `u` (from `xc`), `z` (from `y`: an accumulator that sums another) and `r` (from `p` and
    /// `q` alone), may read `y` before it is complete, and adds all of them, tamed, to a new
    /// accumulator. One time in three the loop holds two such nests (each of its own names).
    fn invariant_nest(&mut self, out: &mut Vec<Stmt>) {
        let mut grids: Vec<ArraySrc> = (self.arrays().into_iter())
            .filter(|a| a.dims.len() == 2 && a.dims[1].value() >= 2)
            .collect();
        // Parameters (and arrays no longer assigned) first: their tangents are fixed.
        if grids.iter().any(|a| a.slot.is_none()) {
            grids.retain(|a| a.slot.is_none());
        }
        let Some(p) = grids.choose(&mut self.rng).cloned() else {
            return self.for_loop(out);
        };
        let alike: Vec<&ArraySrc> = (grids.iter())
            .filter(|a| same_type(&a.dims[0], &p.dims[0]) && same_type(&a.dims[1], &p.dims[1]))
            .collect();
        let q = alike
            .choose(&mut self.rng)
            .map_or_else(|| p.clone(), |q| (*q).clone());
        let rows: Vec<ArraySrc> = (self.arrays().into_iter())
            .filter(|a| a.dims.len() == 1)
            .collect();
        let c = within(self.expr(1), 1.0);
        let outer = self.range_len();
        let (i, s) = (self.fresh("i"), self.fresh("s"));
        let (kn, dn, on) = (p.dims[0].text(), p.dims[1].text(), outer.text());
        // Sometimes two nests in the loop, each hoisted from on its own.
        let copies = if self.coin(0.3) { 2 } else { 1 };
        let count = copies * outer.value() * p.dims[0].value() * (p.dims[1].value() + 4);
        let (p, q) = (&p.text, &q.text);
        let for_ = |pat: &str, iter: String, body: Vec<Stmt>| Stmt::For {
            label: None,
            checkpoint: None,
            pat: pat.to_string(),
            iter,
            body,
        };
        let let_ = |name: &str, value: String| Stmt::Let {
            name: name.to_string(),
            mutable: true,
            ty: None,
            value,
            recompute: false,
            record: false,
        };
        let add = |place: String, value: String| Stmt::Assign {
            place,
            op: "+=",
            value,
        };
        let mut nests = Vec::new();
        for _ in 0..copies {
            let (k, d, a, b) = (
                self.fresh("k"),
                self.fresh("d"),
                self.fresh("a"),
                self.fresh("b"),
            );
            let (xc, y) = (self.fresh("xc"), self.fresh("y"));
            let base = match rows.choose(&mut self.rng) {
                Some(row) if self.coin(0.4) => {
                    format!("{}[{i} % {}] * 0.5", row.text, row.dims[0].text())
                }
                _ => format!("({i} as $F) * 0.25"),
            };
            let mut nest = vec![
                let_(&xc, format!("[0.0; {dn}]")),
                for_(
                    &d,
                    format!("0..{dn}"),
                    vec![Stmt::Assign {
                        place: format!("{xc}[{d}]"),
                        op: "=",
                        value: format!("{base} - {p}[{k}][{d}]"),
                    }],
                ),
                let_(&y, format!("[0.0; {dn}]")),
                for_(
                    &d,
                    format!("0..{dn}"),
                    vec![Stmt::Assign {
                        place: format!("{y}[{d}]"),
                        op: if self.coin(0.7) { "=" } else { "+=" },
                        value: format!("{q}[{k}][{d}] * {xc}[{d}]"),
                    }],
                ),
            ];
            if self.coin(0.2) {
                nest.push(add(s.clone(), format!("({y}[0] * 0.1).sin()")));
            }
            if self.coin(0.7) {
                let op = if self.coin(0.8) { "+=" } else { "-=" };
                let scale = if self.coin(0.5) {
                    format!(" * {}", c.s)
                } else {
                    String::new()
                };
                let entry = vec![Stmt::Assign {
                    place: format!("{y}[{b}]"),
                    op,
                    value: format!("{p}[{k}][{b}] * {xc}[{a}]{scale}"),
                }];
                nest.push(for_(
                    &a,
                    format!("0..{dn}"),
                    vec![for_(&b, format!("{a} + 1..{dn}"), entry)],
                ));
            }
            let mut tail = vec![for_(
                &d,
                format!("0..{dn}"),
                vec![add(s.clone(), format!("({y}[{d}] * 0.1).tanh()"))],
            )];
            let sums = [
                ("u", format!("{xc}[{d}] * {q}[{k}][{d}]"), "0.1"),
                ("z", format!("{y}[{d}] - {p}[{k}][{d}] * {}", c.s), "0.05"),
                ("r", format!("{p}[{k}][{d}] * {q}[{k}][{d}]"), "0.1"),
            ];
            for (prefix, value, scale) in sums {
                if self.coin(0.5) {
                    let name = self.fresh(prefix);
                    nest.push(let_(&name, "0.0".into()));
                    nest.push(for_(&d, format!("0..{dn}"), vec![add(name.clone(), value)]));
                    tail.push(add(s.clone(), format!("({name} * {scale}).tanh()")));
                }
            }
            nest.extend(tail);
            nests.push(for_(&k, format!("0..{kn}"), nest));
        }
        out.push(Stmt::Let {
            name: s.clone(),
            mutable: true,
            ty: Some("$F".into()),
            value: "0.0".into(),
            recompute: false,
            record: false,
        });
        out.push(for_(&i, format!("0..{on}"), nests));
        self.declare(&s, Kind::Float, true, count as f64);
    }

    /// With `const-bounds`, a constant expression of `len` no larger than it and at least 1
    /// (`N / 2`, `(N + 1) / 2`, `N - 1`, `N % 3` where that is not 0), as a named length
    /// whose text is the expression.
    fn bound_expr(&mut self, len: Len) -> Len {
        let n = len.value();
        if n < 2 || !self.p(Feature::ConstBounds, 0.3) {
            return len;
        }
        let t = len.text();
        // A const generic parameter sizes arrays only alone: with it, `N / k`, `N - k` and
        // `N % k` (tape sized `N` or `k`); other arithmetic only on literals and `const` items.
        let generic =
            matches!(&len, Len::Named(name, _) if !self.consts.iter().any(|c| &c.name == name));
        let mut forms = vec![
            (format!("{t} / 2"), n / 2),
            (format!("{t} - 1"), n - 1),
            (format!("{t} % 3"), n % 3),
        ];
        if !generic {
            forms.push((format!("({t} + 1) / 2"), n.div_ceil(2)));
            forms.push((format!("{t} * 2 / 3"), n * 2 / 3));
        }
        let ok: Vec<_> = forms.into_iter().filter(|(_, v)| *v >= 1).collect();
        let (text, value) = ok
            .choose(&mut self.rng)
            .cloned()
            .expect("`N - 1` is at least 1");
        Len::Named(format!("({text})"), value)
    }

    fn range_len(&mut self) -> Len {
        let mut lens = self.lens.clone();
        for a in self.arrays() {
            lens.extend(a.dims);
        }
        lens.choose(&mut self.rng).cloned().expect("not empty")
    }

    fn for_loop(&mut self, out: &mut Vec<Stmt>) {
        self.accumulator(out);
        let mark = self.scope.len();
        let (frozen, hidden) = (self.frozen.len(), self.hidden.len());
        let arrays1: Vec<ArraySrc> = self
            .arrays()
            .into_iter()
            .filter(|a| a.dims.len() == 1 && !a.field)
            .collect();
        let triangles: Vec<(String, usize)> = self
            .visible()
            .into_iter()
            .filter_map(|k| match self.scope[k].kind {
                Kind::Index(max) if self.scope[k].depth > 0 && max > 0 => {
                    Some((self.scope[k].name.clone(), max))
                }
                _ => None,
            })
            .collect();
        let mut forms: Vec<Feature> = vec![
            Feature::ForRange,
            Feature::ForInclusive,
            Feature::ForRev,
            Feature::ForStep,
        ];
        if !triangles.is_empty() {
            forms.extend([Feature::Triangular, Feature::Triangular]);
        }
        if !arrays1.is_empty() {
            forms.extend([Feature::Iter, Feature::Enumerate, Feature::Zip]);
        }
        if arrays1.iter().any(|a| a.slot.is_some()) {
            forms.push(Feature::IterMut);
        }
        forms.retain(|&f| self.on.has(f));
        let Some(&form) = forms.choose(&mut self.rng) else {
            return;
        };
        self.used.push(form);
        let mut body = Vec::new();
        let (pat, iter, trips) = match form {
            Feature::ForRange | Feature::ForRev | Feature::ForStep => {
                let len = self.range_len();
                let len = self.bound_expr(len);
                let i = self.fresh("i");
                let (iter, trips) = match form {
                    Feature::ForRange => (format!("0..{}", len.text()), len.value()),
                    Feature::ForRev => (format!("(0..{}).rev()", len.text()), len.value()),
                    _ => {
                        let start = self.rng.gen_range(0..=1);
                        let k = self.rng.gen_range(2..=3);
                        match triangles.choose(&mut self.rng) {
                            // Now and then a step that reads an outer loop's index: at most
                            // as many trips as a step of 1.
                            Some((outer, _)) if self.coin(0.25) => (
                                format!("({start}..{}).step_by({outer} + 1)", len.text()),
                                len.value() - start,
                            ),
                            _ => (
                                format!("({start}..{}).step_by({k})", len.text()),
                                (len.value() - start).div_ceil(k),
                            ),
                        }
                    }
                };
                self.enter_loop(&i, len.value() - 1, trips as f64);
                (i, iter, trips)
            }
            Feature::ForInclusive => {
                let len = self.range_len().value();
                let hi = self.rng.gen_range(0..len);
                let lo = self.rng.gen_range(0..=hi);
                let i = self.fresh("i");
                self.enter_loop(&i, hi, (hi - lo + 1) as f64);
                (i, format!("{lo}..={hi}"), hi - lo + 1)
            }
            Feature::Triangular => {
                let (outer, max) = triangles.choose(&mut self.rng).cloned().expect("some");
                let j = self.fresh("j");
                if self.coin(0.5) {
                    self.enter_loop(&j, max - 1, max as f64);
                    (j, format!("0..{outer}"), max)
                } else {
                    self.enter_loop(&j, max, (max + 1) as f64);
                    (j, format!("0..={outer}"), max + 1)
                }
            }
            Feature::Iter | Feature::Enumerate => {
                let src = arrays1.choose(&mut self.rng).cloned().expect("some");
                let len = src.dims[0].value();
                let v = self.fresh("e");
                self.frozen.push(src.text.clone());
                if form == Feature::Iter && self.side.gen_bool(0.2) {
                    // Groups of `k` elements (`k` past the length now and then: none), the
                    // body reading two of them (or their sum) into a local first.
                    let chunks = self.side.gen_bool(0.5);
                    let k = self.side.gen_range(1..=len + 1);
                    let groups = match chunks {
                        true => len / k,
                        false => (len + 1).saturating_sub(k),
                    };
                    // Now and then enumerated (its index an index below the count).
                    let counter = (groups > 0 && self.side.gen_bool(0.3)).then(|| self.fresh("i"));
                    match &counter {
                        Some(i) => self.enter_loop(i, groups - 1, groups as f64),
                        None => self.enter_loop("", 0, groups as f64),
                    }
                    let (a, b) = (self.side.gen_range(0..k), self.side.gen_range(0..k));
                    let w = self.fresh("w");
                    // Two elements, or now and then the group iterated: summed, its neighbours'
                    // products, its last two.
                    let (value, mag) = match self.side.gen_range(0..6) {
                        0 => (format!("{w}[{a}] + {w}[{b}]"), 2.0 * src.mag),
                        1 => (format!("{w}[{a}] - {w}[{b}]"), 2.0 * src.mag),
                        2 => (format!("{w}[{a}] * {w}[{b}]"), src.mag * src.mag),
                        3 => (
                            format!("{w}.iter().map(|e| e * 0.5).sum::<$F>()"),
                            0.5 * k as f64 * src.mag,
                        ),
                        4 => (
                            format!(
                                "{w}.iter().zip({w}.iter().skip(1)).map(|(p, q)| p * q).sum::<$F>()"
                            ),
                            k as f64 * src.mag * src.mag,
                        ),
                        _ => (
                            format!("{w}.iter().rev().take(2).map(|e| e * 0.5).sum::<$F>()"),
                            src.mag,
                        ),
                    };
                    body.push(Stmt::Let {
                        name: v.clone(),
                        mutable: false,
                        ty: None,
                        value,
                        recompute: false,
                        record: false,
                    });
                    self.declare(&v, Kind::Float, false, mag);
                    // `chunks` where the length, written as a number, leaves no shorter chunk.
                    let whole = matches!(src.dims[0], Len::Lit(_)) && !src.field && len % k == 0;
                    let group = match (chunks, whole && self.side.gen_bool(0.5)) {
                        (true, true) => "chunks",
                        (true, false) => "chunks_exact",
                        _ => "windows",
                    };
                    let (pat, enumerate) = match counter {
                        Some(i) => (format!("({i}, {w})"), ".enumerate()"),
                        None => (w, ""),
                    };
                    (
                        pat,
                        format!("{}.{group}({k}){enumerate}{}", src.text, self.rev()),
                        groups,
                    )
                } else if form == Feature::Iter && !src.field && self.side.gen_bool(0.2) {
                    // A sub-slice of the array, of constant bounds (`h[1..3]`, `a[2..]`,
                    // `a[..=1]`, maybe empty).
                    let lo = self.side.gen_range(0..=len);
                    let hi = self.side.gen_range(lo..=len);
                    let range = match self.side.gen_range(0..4) {
                        0 if hi == len => format!("{lo}.."),
                        1 if lo == 0 => format!("..{hi}"),
                        2 if hi > lo => format!("{lo}..={}", hi - 1),
                        _ => format!("{lo}..{hi}"),
                    };
                    self.enter_loop("", 0, (hi - lo) as f64);
                    self.declare(&v, Kind::Elem, false, src.mag);
                    let text = format!("{}[{range}].iter(){}", src.text, self.rev());
                    (v, text, hi - lo)
                } else if form == Feature::Iter {
                    self.enter_loop("", 0, len as f64);
                    self.declare(&v, Kind::Elem, false, src.mag);
                    let window = self.window(len);
                    (v, format!("{}.iter(){window}{}", src.text, self.rev()), len)
                } else {
                    let i = self.fresh("i");
                    self.enter_loop(&i, len - 1, len as f64);
                    self.declare(&v, Kind::Elem, false, src.mag);
                    let (window, rev) = (self.window(len), self.rev());
                    // Now and then `.skip(k)`, `.take(n)` or `.step_by(s)` after `.enumerate()`
                    // instead (the index still the element's).
                    let after = match window.is_empty() && rev.is_empty() {
                        true if self.side.gen_bool(0.2) => match self.side.gen_range(0..3) {
                            0 => format!(".skip({})", self.side.gen_range(0..=len)),
                            1 => format!(".take({})", self.side.gen_range(0..=len)),
                            _ => format!(".step_by({})", self.side.gen_range(1..=3)),
                        },
                        _ => String::new(),
                    };
                    (
                        format!("({i}, {v})"),
                        format!("{}.iter(){window}.enumerate(){rev}{after}", src.text),
                        len,
                    )
                }
            }
            Feature::Zip => {
                let a = arrays1.choose(&mut self.rng).cloned().expect("some");
                let len = a.dims[0].value();
                let same: Vec<&ArraySrc> = arrays1
                    .iter()
                    .filter(|b| b.dims[0].value() == len)
                    .collect();
                // Now and then arrays of two lengths: `zip` stops at the shorter.
                let uneven: Vec<&ArraySrc> = arrays1
                    .iter()
                    .filter(|b| b.dims[0].value() != len)
                    .collect();
                let b = match uneven.choose(&mut self.rng) {
                    Some(b) if self.coin(0.3) => (*b).clone(),
                    _ => (*same.choose(&mut self.rng).expect("a itself")).clone(),
                };
                let len = len.min(b.dims[0].value());
                let (u, v) = (self.fresh("e"), self.fresh("e"));
                self.frozen.push(a.text.clone());
                self.frozen.push(b.text.clone());
                self.enter_loop("", 0, len as f64);
                self.declare(&u, Kind::Elem, false, a.mag);
                self.declare(&v, Kind::Elem, false, b.mag);
                (
                    format!("({u}, {v})"),
                    format!(
                        "{}.iter(){}.zip({}.iter(){}){}",
                        a.text,
                        self.window(len),
                        b.text,
                        self.window(len),
                        self.rev()
                    ),
                    len,
                )
            }
            _ => {
                let locals: Vec<ArraySrc> = arrays1
                    .iter()
                    .filter(|a| a.slot.is_some())
                    .cloned()
                    .collect();
                let src = locals.choose(&mut self.rng).cloned().expect("some");
                let len = src.dims[0].value();
                let slot = src.slot.expect("filtered");
                let v = self.fresh("e");
                self.hidden.push(src.text.clone());
                self.enter_loop("", 0, len as f64);
                self.declare(&v, Kind::ElemMut, true, self.scope[slot].mag);
                let e = self.bounded(2);
                let op = if self.coin(0.6) { "=" } else { "+=" };
                self.scope[slot].mag = if op == "=" {
                    self.scope[slot].mag.max(1.6)
                } else {
                    self.scope[slot].mag + 1.6
                };
                body.push(Stmt::Assign {
                    place: format!("*{v}"),
                    op,
                    value: e.s,
                });
                (
                    v,
                    format!("{}.iter_mut(){}", src.text, self.window(len)),
                    len,
                )
            }
        };
        let checkpoint = if !self.checkpointed && trips > 0 && self.p(Feature::Checkpoint, 0.12) {
            let s = self.rng.gen_range(1..=trips.max(1));
            Some(match self.rng.gen_range(0..3) {
                1 if self.p(Feature::Snapshots, 0.9) => Checkpoint::Snapshots(s),
                2 if self.p(Feature::Binomial, 0.9) => Checkpoint::Binomial(s),
                _ => Checkpoint::Every,
            })
        } else {
            None
        };
        let label = (self.on.has(Feature::LoopExits) && self.side.gen_bool(0.5)).then(|| {
            self.fresh += 1;
            format!("l{}", self.fresh)
        });
        *self.labels.last_mut().expect("entered above") = label.clone();
        let was = self.checkpointed;
        self.checkpointed |= checkpoint.is_some();
        self.loop_body(&mut body);
        self.checkpointed = was;
        self.leave_loop();
        self.scope.truncate(mark);
        self.frozen.truncate(frozen);
        self.hidden.truncate(hidden);
        out.push(Stmt::For {
            label,
            checkpoint,
            pat,
            iter,
            body,
        });
    }

    /// A `while` or `loop` bounded by `#[max_iters(K)]`, with a counter that stops it in time.
    fn bounded_loop(&mut self, out: &mut Vec<Stmt>) {
        let use_while =
            self.on.has(Feature::While) && (self.coin(0.5) || !self.on.has(Feature::Loop));
        if !use_while && !self.on.has(Feature::Loop) {
            return;
        }
        self.accumulator(out);
        let mark = self.scope.len();
        let c = self.fresh("c");
        out.push(Stmt::Let {
            name: c.clone(),
            mutable: true,
            ty: None,
            value: "0".into(),
            recompute: false,
            record: false,
        });
        self.declare(&c, Kind::Counter, false, 0.0);
        let limit = self.rng.gen_range(1..=4);
        let max_iters = limit + self.rng.gen_range(0..=1);
        self.enter_loop("", 0, limit as f64);
        let cond = self.cond(1);
        let mut body = vec![Stmt::Assign {
            place: c.clone(),
            op: "+=",
            value: "1".into(),
        }];
        self.loop_body(&mut body);
        self.leave_loop();
        self.scope.truncate(mark);
        self.declare(&c, Kind::Counter, false, 0.0);
        if use_while {
            self.used.push(Feature::While);
            out.push(Stmt::While {
                max_iters,
                cond: format!("{c} < {limit} && ({cond})"),
                body,
            });
        } else {
            self.used.push(Feature::Loop);
            body.insert(
                0,
                Stmt::If {
                    arms: vec![(format!("{c} >= {limit} || ({cond})"), vec![Stmt::Break])],
                    els: None,
                },
            );
            // The iteration that breaks at the top counts as started.
            out.push(Stmt::Loop {
                max_iters: max_iters + 1,
                body,
            });
        }
    }
}

fn dims_of(ty: &Ty) -> Vec<Len> {
    let mut dims = Vec::new();
    let mut t = ty;
    while let Ty::Array(elem, len) = t {
        dims.push(len.clone());
        t = elem;
    }
    dims
}

/// Whether two lengths make the same array type: a const generic parameter only matches itself.
fn same_type(a: &Len, b: &Len) -> bool {
    let generic = |l: &Len| matches!(l, Len::Named(n, _) if n == "N");
    if generic(a) || generic(b) {
        a == b
    } else {
        a.value() == b.value()
    }
}

/// The zero of a float or float-array type, as a literal.
fn zero_of(ty: &Ty) -> String {
    match ty {
        Ty::Array(elem, len) => format!("[{}; {}]", zero_of(elem), len.value()),
        _ => "0.0".to_string(),
    }
}

fn zeros(dims: &[Len]) -> String {
    dims.iter()
        .rev()
        .fold("0.0".to_string(), |e, len| format!("[{e}; {}]", len.text()))
}

/// Scales an expression down to magnitude about 2 when it is large.
fn tame(e: Ex) -> Ex {
    if e.mag <= TAME {
        return e;
    }
    let scale = 2.0 / e.mag;
    let digits = (-scale.log10()).ceil().max(0.0) as usize + 1;
    Ex::from(format!("({} * {scale:.digits$})", e.s), 2.0, &[&e])
}

/// `e` scaled down where its magnitude may exceed `mag`: times a literal rounded down at the
/// digits printed, so that the printed factor keeps the bound.
fn within(e: Ex, mag: f64) -> Ex {
    if e.mag <= mag {
        return e;
    }
    let digits = (-(mag / e.mag).log10()).ceil().max(0.0) as usize + 1;
    let unit = 10f64.powi(digits as i32);
    let scale = (mag / e.mag * unit).floor() / unit;
    Ex::from(format!("({} * {scale:.digits$})", e.s), mag, &[&e])
}

/// The expression with its float type fixed: a cast where it is made of literals alone (an
/// untyped `0.5` would be `f64` in a tuple, which has no annotation here).
fn typed(e: &Ex) -> String {
    if e.typed {
        e.s.clone()
    } else {
        format!("(({}) as $F)", e.s)
    }
}

/// Whether a `for` statement has no checkpoint attribute.
fn checkpoint_free(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::For {
            checkpoint: None,
            ..
        }
    )
}

/// In a function with a `#[checkpoint]` loop, only lets inside the innermost checkpointed loops
/// keep their `#[record(f32)]`: a checkpointed loop re-runs its iterations from the values it
/// reads, which must be exact, and a let outside it may be read inside (the macro rejects that).
fn keep_checkpoint_inputs_exact(body: &mut [Stmt]) {
    /// A loop whose iterations the reverse sweep runs again: a checkpointed one, or one over a
    /// slice's run-time length (the slices are `xs` and `ys`).
    fn reruns(checkpoint: &Option<Checkpoint>, iter: &str) -> bool {
        checkpoint.is_some()
            || iter.starts_with("xs")
            || iter.starts_with("0..xs")
            || iter.starts_with("ys")
            || iter.starts_with("0..ys")
    }
    fn has_checkpoint(b: &[Stmt]) -> bool {
        b.iter().any(|s| match s {
            Stmt::For {
                checkpoint,
                body,
                iter,
                ..
            } => reruns(checkpoint, iter) || has_checkpoint(body),
            Stmt::If { arms, els } => {
                arms.iter().any(|(_, b)| has_checkpoint(b))
                    || els.as_deref().is_some_and(has_checkpoint)
            }
            Stmt::While { body, .. } | Stmt::Loop { body, .. } => has_checkpoint(body),
            _ => false,
        })
    }
    fn clear(b: &mut [Stmt], inside: bool) {
        for s in b {
            match s {
                Stmt::Let { record, .. } if !inside => *record = false,
                // Inside a checkpointed loop, lets keep their attribute unless another
                // checkpointed loop inside it may read them.
                Stmt::For {
                    checkpoint,
                    body,
                    iter,
                    ..
                } => {
                    let inside = match reruns(checkpoint, iter) {
                        true => !has_checkpoint(body),
                        false => inside,
                    };
                    clear(body, inside);
                }
                Stmt::If { arms, els } => {
                    for (_, b) in arms {
                        clear(b, inside);
                    }
                    if let Some(b) = els {
                        clear(b, inside);
                    }
                }
                Stmt::While { body, .. } | Stmt::Loop { body, .. } => clear(body, inside),
                _ => {}
            }
        }
    }
    if has_checkpoint(body) {
        clear(body, false);
    }
}

/// The macro learns that `mode` is an enum from a `match` on it: make sure there is one in the
/// text (an expression that matched on it may have been generated and dropped).
fn ensure_match(body: &mut Vec<Stmt>, tail: &str) {
    if body.iter().any(|s| s.mentions("match mode")) || tail.contains("match mode") {
        return;
    }
    body.insert(
        0,
        Stmt::Let {
            name: "scale".into(),
            mutable: false,
            ty: Some("$F".into()),
            value: "match mode { E::A => 1.0, _ => 0.5 }".into(),
            recompute: false,
            record: false,
        },
    );
}
