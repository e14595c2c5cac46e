//! Writes the generated workspace: one file per program (the module under test, its f64
//! reference twin, and a check function per generated function) in one of its parts, each part's
//! `lib.rs` listing them, the checker (`harness/prelude.rs`, a crate of its own) and `main.rs`.

use crate::ast::{Float, Func, Mode, Program, Stmt, Ty};
use crate::features::Feature;
use std::fmt::Write;

/// The checker, copied into every generated crate.
pub const PRELUDE: &str = include_str!("../harness/prelude.rs");

/// A line range of a program file and what it holds, for mapping compiler errors back.
#[derive(Clone, Debug)]
pub struct Span {
    /// `f`, `inner::g0`, `f (reference)`, `f (harness)`.
    pub what: String,
    pub first: usize,
    pub last: usize,
}

/// A program's file: its text and which lines hold which function.
pub struct ProgramFile {
    pub text: String,
    pub spans: Vec<Span>,
    /// The module under test as printed, for reports.
    pub test_source: String,
}

/// How the harness spells a type: concrete lengths, the float type, `module::S`.
fn harness_ty(ty: &Ty, float: &str, module: &str) -> String {
    match ty {
        Ty::Float => float.into(),
        Ty::Usize => "usize".into(),
        Ty::Enum | Ty::PassedEnum => "E".into(),
        Ty::Bool => "bool".into(),
        Ty::Struct => format!("{module}::S"),
        Ty::Array(elem, len) => format!("[{}; {}]", harness_ty(elem, float, module), len.value()),
        Ty::Tuple(items) => {
            let items: Vec<_> = items.iter().map(|t| harness_ty(t, float, module)).collect();
            format!("({},)", items.join(", "))
        }
        Ty::Slice(_) => format!("[{float}]"),
    }
}

/// The names of a value's float coordinates, in `Flat` order.
fn coordinates(name: &str, ty: &Ty, fields: &[(String, Ty)], out: &mut Vec<String>) {
    match ty {
        Ty::Float => out.push(name.into()),
        Ty::Usize | Ty::Enum | Ty::PassedEnum | Ty::Bool | Ty::Slice(_) => {}
        Ty::Struct => {
            for (field, t) in fields {
                coordinates(&format!("{name}.{field}"), t, fields, out);
            }
        }
        Ty::Array(elem, len) => {
            for i in 0..len.value() {
                coordinates(&format!("{name}[{i}]"), elem, fields, out);
            }
        }
        Ty::Tuple(items) => {
            for (i, t) in items.iter().enumerate() {
                coordinates(&format!("{name}.{i}"), t, fields, out);
            }
        }
    }
}

fn lines(text: &str) -> usize {
    text.lines().count()
}

/// The file of one program.
pub fn program_file(p: &Program, seed: u64, used: &[Feature]) -> ProgramFile {
    let mut out = String::new();
    let mut spans = Vec::new();
    let used: Vec<_> = used.iter().map(|f| f.name()).collect();
    let _ = writeln!(
        out,
        "//! Program {} of seed {seed} ({}): {}.",
        p.name,
        match p.float {
            Float::F64 => "f64",
            Float::F32 => "f32",
        },
        used.join(", ")
    );
    out.push_str("#![allow(warnings, clippy::all)]\n");
    if p.enum_param {
        out.push_str(
            "#[derive(Clone, Copy, Debug, PartialEq)]\npub enum E {\n    A,\n    B,\n    C,\n}\n// An enum only passed on has a place in the gradient (a copy) and no coordinates.\nimpl crate::Flat for E {\n    fn read(_: &mut &[f64]) -> Self { E::A }\n    fn write(&self, _: &mut Vec<f64>) {}\n}\n",
        );
    }
    out.push_str("pub mod t {\n");
    let test = p.print(Mode::test(p.float), 1, lines(&out) + 1);
    out.push_str(&test.text);
    out.push_str("}\n");
    for (what, first, last) in test.spans {
        spans.push(Span { what, first, last });
    }
    out.push_str("pub mod r {\n");
    let reference = p.print(Mode::REFERENCE, 1, lines(&out) + 1);
    out.push_str(&reference.text);
    out.push_str("}\n");
    for (what, first, last) in reference.spans {
        spans.push(Span {
            what: format!("{what} (reference)"),
            first,
            last,
        });
    }
    if !p.fields.is_empty() {
        for module in ["t", "r"] {
            let reads: Vec<_> = p
                .fields
                .iter()
                .map(|(f, _)| format!("{f}: crate::Flat::read(c)"))
                .collect();
            let writes: String = p
                .fields
                .iter()
                .map(|(f, _)| format!(" crate::Flat::write(&self.{f}, out);"))
                .collect();
            let _ = writeln!(
                out,
                "impl crate::Flat for {module}::S {{\n    fn read(c: &mut &[f64]) -> Self {{ {module}::S {{ {} }} }}\n    fn write(&self, out: &mut Vec<f64>) {{{writes} }}\n}}",
                reads.join(", ")
            );
        }
    }
    let mut checks = Vec::new();
    for f in &p.funcs {
        let first = lines(&out) + 1;
        let name = format!("check_{}", f.name);
        out.push_str(&check_fn(p, f, &name));
        spans.push(Span {
            what: format!("{} (harness)", f.path()),
            first,
            last: lines(&out),
        });
        checks.push(format!("(\"{}\", {name})", f.path()));
    }
    let _ = writeln!(
        out,
        "pub const CHECKS: crate::Checks = &[{}];",
        checks.join(", ")
    );
    ProgramFile {
        text: out,
        spans,
        test_source: Mode::test(p.float).subst(&test.text),
    }
}

/// `check_f(ctx)`: forward, grad, try_forward, accumulation and finite differences of one
/// function at `ctx.points` points.
fn check_fn(p: &Program, f: &Func, name: &str) -> String {
    let mode = Mode::test(p.float);
    let float = mode.float;
    let single = p.float == Float::F32 || p.mixed;
    // With `#[record(f32)]` somewhere, `f_grad`'s gradient is that of values rounded to f32:
    // forward mode and `f_hvp` (full precision) agree with it to f32 rounding only.
    let narrowed = single || p.funcs.iter().any(|f| f.body.iter().any(Stmt::has_record));
    // A value that reads a `nested` helper's gradient reads one of values rounded to f32
    // where the helper records some (its twin records none): equal to f32 rounding only
    // (seed 102, p175: 5e-14 apart).
    let exact = !single && (!f.calls_nested || !narrowed);
    let floats: Vec<_> = f.params.iter().filter(|q| q.ty.has_floats()).collect();
    let differentiated = f.differentiated();
    let mut names = Vec::new();
    let mut wrt = Vec::new();
    for q in &floats {
        let before = names.len();
        coordinates(&q.name, &q.ty, &p.fields, &mut names);
        let on = differentiated.iter().any(|d| d.name == q.name);
        wrt.extend(std::iter::repeat_n(on, names.len() - before));
    }
    let wrt_names: Vec<&String> = names
        .iter()
        .zip(&wrt)
        .filter(|(_, w)| **w)
        .map(|(n, _)| n)
        .collect();
    let mut out_coords = Vec::new();
    coordinates("out", &f.ret, &p.fields, &mut out_coords);
    let tuple = |module: &str, fl: &str, ps: &[&crate::ast::Param]| {
        let names: Vec<_> = ps.iter().map(|q| q.name.clone()).collect();
        let tys: Vec<_> = ps.iter().map(|q| harness_ty(&q.ty, fl, module)).collect();
        (
            format!("({},)", names.join(", ")),
            format!("({},)", tys.join(", ")),
        )
    };
    let (pat, test_tys) = tuple("t", float, &floats);
    let (_, ref_tys) = tuple("r", "f64", &floats);
    let d_tys = tuple("t", float, &differentiated).1;
    let args: Vec<_> = f.params.iter().map(|q| q.arg(&q.name)).collect();
    let args = args.join(", ");
    let turbofish = f.turbofish();
    let path = f.path();
    let tape_path = match path.rsplit_once("::") {
        Some((module, _)) => format!("t::{module}::{}", f.tape()),
        None => format!("t::{}", f.tape()),
    };
    let d_args: String = (0..differentiated.len())
        .map(|k| format!(", &mut d.{k}"))
        .collect();
    let ret_ty = harness_ty(&f.ret, float, "t");
    let by_ref = matches!(f.ret, Ty::Array(..));
    let amp = if by_ref { "&" } else { "" };

    let mut s = String::new();
    let _ = writeln!(s, "pub fn {name}(ctx: &mut crate::Ctx) {{");
    let quoted = |v: &[String]| {
        v.iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(s, "    const NAMES: &[&str] = &[{}];", quoted(&names));
    let wrt_names: Vec<String> = wrt_names.into_iter().cloned().collect();
    let _ = writeln!(
        s,
        "    const WRT_NAMES: &[&str] = &[{}];",
        quoted(&wrt_names)
    );
    let _ = writeln!(s, "    const WRT: &[bool] = &{wrt:?};");
    let _ = writeln!(s, "    for _ in 0..ctx.points {{");
    let _ = writeln!(s, "        let pt = ctx.point(NAMES.len(), {single});");
    let _ = writeln!(s, "        let {pat}: {test_tys} = crate::unflat(&pt);");
    // The data of slice parameters: in the float under test here, in f64 for the reference.
    let slices = |float: &str| -> String {
        let mut out = String::new();
        for q in &f.params {
            if let Ty::Slice(data) = &q.ty {
                let values: Vec<String> = data
                    .iter()
                    .map(|&v| format!("{:?}", f64::from(v) / 64.0))
                    .collect();
                let _ = write!(
                    out,
                    "let {}: [{float}; {}] = [{}]; ",
                    q.name,
                    data.len(),
                    values.join(", ")
                );
            }
        }
        out
    };
    let (test_slices, ref_slices) = (slices(float), slices("f64"));
    let _ = writeln!(s, "        {test_slices}");
    for q in &f.params {
        if let Some(fixed) = &q.fixed {
            match q.ty {
                Ty::Usize => {
                    let _ = writeln!(s, "        let {}: usize = {};", q.name, fixed[0]);
                }
                Ty::Enum | Ty::PassedEnum => {
                    let v = ["A", "B", "C"][fixed[0]];
                    let _ = writeln!(s, "        let {}: E = E::{v};", q.name);
                }
                Ty::Bool => {
                    let _ = writeln!(s, "        let {}: bool = {};", q.name, fixed[0] == 1);
                }
                _ => {
                    let _ = writeln!(
                        s,
                        "        let {}: [usize; {}] = {fixed:?};",
                        q.name,
                        fixed.len()
                    );
                }
            }
        }
    }
    let _ = writeln!(s, "        let primal = t::{path}{turbofish}({args});");
    let _ = writeln!(s, "        let mut tape = {tape_path}{turbofish}::new();");
    let _ = writeln!(
        s,
        "        let fwd = t::{path}_forward{turbofish}({args}, &mut tape);"
    );
    let _ = writeln!(
        s,
        "        ctx.same(\"forward == primal\", &crate::flat(&fwd), &crate::flat(&primal));"
    );
    if f.has_bounded_loop() {
        let _ = writeln!(
            s,
            "        let mut tape2 = {tape_path}{turbofish}::new();\n        match t::{path}_try_forward{turbofish}({args}, &mut tape2) {{\n            Ok(v) => ctx.same(\"try_forward == primal\", &crate::flat(&v), &crate::flat(&primal)),\n            Err(e) => ctx.fail(\"try_forward\", 1.0, format!(\"Err({{e:?}})\")),\n        }}"
        );
    }
    let _ = writeln!(
        s,
        "        let reference = |q: &[f64], w: &[f64]| -> f64 {{\n            let {pat}: {ref_tys} = crate::unflat(q);\n            {ref_slices}\n            crate::dot(&crate::flat(&r::{path}{turbofish}({args})), w)\n        }};"
    );
    let twin = format!(
        "&crate::flat(&{{ let {pat}: {ref_tys} = crate::unflat(&pt); {ref_slices} r::{path}{turbofish}({args}) }})"
    );
    if exact {
        let _ = writeln!(
            s,
            "        ctx.same(\"primal == reference twin\", &crate::flat(&primal), {twin});"
        );
    } else if !single {
        let _ = writeln!(
            s,
            "        ctx.close(\"primal ~ reference twin\", &crate::flat(&primal), {twin}, true);"
        );
    }
    let zeros = format!("vec![0.0; {}]", wrt_names.len());
    if f.ret == Ty::Float {
        let _ = writeln!(s, "        let w = vec![1.0];");
        let _ = writeln!(
            s,
            "        let (v, g) = t::{path}_grad{turbofish}({args});\n        ctx.same(\"grad value == primal\", &crate::flat(&v), &crate::flat(&primal));\n        let once = crate::flat(&g);"
        );
    } else {
        let _ = writeln!(s, "        let w = ctx.seed({});", out_coords.len());
        let _ = writeln!(
            s,
            "        let seed: {ret_ty} = crate::unflat(&w);\n        let mut d: {d_tys} = crate::unflat(&{zeros});\n        t::{path}_adjoint{turbofish}({args}, &tape, {amp}seed{d_args});\n        let once = crate::flat(&d);"
        );
    }
    let _ = writeln!(
        s,
        "        let pre = ctx.prefill(once.len());\n        let mut d: {d_tys} = crate::unflat(&pre);\n        let seed2: {ret_ty} = crate::unflat(&w.iter().map(|v| 2.0 * v).collect::<Vec<f64>>());\n        t::{path}_adjoint{turbofish}({args}, &tape, {amp}seed2{d_args});\n        ctx.accumulate(&pre, &once, &crate::flat(&d), {single}, WRT_NAMES);"
    );
    // A `nested` function's `f_grad_<x>` (one `f_hvp` each) against `f_grad`'s component.
    if f.nested {
        let mut sets = String::new();
        for q in differentiated.iter().filter(|q| q.ty == Ty::Float) {
            if let Some(k) = wrt_names.iter().position(|n| **n == q.name) {
                let x = &q.name;
                let _ = write!(
                    sets,
                    " nested[{k}] = t::{path}_grad_{x}{turbofish}({args}) as f64;"
                );
            }
        }
        let _ = writeln!(
            s,
            "        let mut nested = once.clone();{sets}\n        ctx.close(\"nested grad_x == gradient\", &nested, &once, {narrowed});"
        );
    }
    // Forward mode: `w · (J t)` from `f_jvp` equals `(Jᵀ w) · t` from the adjoint.
    let t_args: String = differentiated
        .iter()
        .enumerate()
        .map(|(k, q)| match q.ty {
            Ty::Float => format!(", tan.{k}"),
            _ => format!(", &tan.{k}"),
        })
        .collect();
    let _ = writeln!(
        s,
        "        let dir = ctx.seed(once.len());\n        let tan: {d_tys} = crate::unflat(&dir);\n        let (jv, jt) = t::{path}_jvp{turbofish}({args}{t_args});\n        ctx.same(\"jvp value == primal\", &crate::flat(&jv), &crate::flat(&primal));\n        ctx.tangent(&crate::flat(&jt), &w, &once, &dir, {narrowed});"
    );
    // Vector forward mode, where the macro generates it: three directions in one sweep, each
    // lane against `f_jvp` along that direction alone.
    if vector_mode(p, f) {
        let tys = (float, d_tys.as_str());
        s.push_str(&lanes_check(
            f,
            &differentiated,
            (&args, &turbofish),
            tys,
            narrowed,
        ));
    }
    // The same function as a method of `S`: the same generated code, so the same bits.
    if p.method && std::ptr::eq(f, p.funcs.last().expect("the function under test")) {
        s.push_str(&method_checks(f, &differentiated, &turbofish));
    }
    // Second order: `f_hvp`'s gradient against `f_grad`'s, `H` symmetric along two seeded
    // directions, and (in f64) `w · H v` against central differences of `f_grad` along `v`.
    // Not for a function that calls a `nested` helper's gradient: `jvp` only, as its second
    // order would be the helper's third.
    if f.ret == Ty::Float && !f.calls_nested {
        let dir_args = |t: &str| -> String {
            differentiated
                .iter()
                .enumerate()
                .map(|(k, q)| match q.ty {
                    Ty::Float => format!(", {t}.{k}"),
                    _ => format!(", &{t}.{k}"),
                })
                .collect()
        };
        let (va, wa) = (dir_args("vt"), dir_args("wt"));
        let _ = writeln!(
            s,
            "        let vdir = ctx.seed(once.len());\n        let vt: {d_tys} = crate::unflat(&vdir);\n        let (hv_value, hv_grad, hv) = t::{path}_hvp{turbofish}({args}{va});\n        ctx.same(\"hvp value == primal\", &crate::flat(&hv_value), &crate::flat(&primal));\n        ctx.close(\"hvp gradient\", &crate::flat(&hv_grad), &once, {narrowed});\n        let wdir = ctx.seed(once.len());\n        let wt: {d_tys} = crate::unflat(&wdir);\n        let (_, _, hw) = t::{path}_hvp{turbofish}({args}{wa});\n        ctx.symmetric(&crate::flat(&hv), &crate::flat(&hw), &vdir, &wdir, {single});"
        );
        if p.method && std::ptr::eq(f, p.funcs.last().expect("the function under test")) {
            s.push_str(&method_hvp_check(f, &differentiated, &turbofish));
        }
        if !single {
            // The gradient to difference: `f_grad`'s, or with `#[record(f32)]` (whose rounded
            // records make `f_grad` a step function at the scale of the differences) `f_hvp`'s,
            // which does not round and is checked against `f_grad` above.
            let gradient = if narrowed {
                format!("t::{path}_hvp{turbofish}({args}{va}).1")
            } else {
                format!("t::{path}_grad{turbofish}({args}).1")
            };
            let _ = writeln!(
                s,
                "        let grad_at = |q: &[f64]| -> Vec<f64> {{\n            let {pat}: {test_tys} = crate::unflat(q);\n            crate::flat(&{gradient})\n        }};\n        ctx.hessian(&pt, WRT, &vdir, &wdir, &crate::flat(&hv), &grad_at);"
            );
        }
    }
    let _ = writeln!(
        s,
        "        let value = crate::dot(&crate::flat(&primal), &w);\n        ctx.gradient(&pt, WRT, &once, &|q: &[f64]| reference(q, &w), value, {single}, NAMES);"
    );
    s.push_str("    }\n}\n");
    s
}

/// The lanes of vector forward mode in a check.
const LANES: usize = 3;

/// Whether `#[differentiable(jvp)]` gives `f` an `f_jvp_vec` (`tangent::lanes::vector_mode`):
/// parameters of floats and arrays of them, beside `usize`s, `bool`s, index tables, slices of
/// data and matched enums (`TyVal::Enum`, not a struct); no struct, no enum only passed on (the
/// macro takes it for a struct); no call of a nested gradient or of a helper returning a tuple
/// (`calls_nested`), and no call's result bound by a `let` without a type (its type is named
/// through the callee's contract).
fn vector_mode(p: &Program, f: &Func) -> bool {
    fn plain(ty: &Ty) -> bool {
        match ty {
            Ty::Float => true,
            Ty::Array(elem, _) => plain(elem),
            Ty::Tuple(items) => items.iter().all(plain),
            _ => false,
        }
    }
    let params = (f.params.iter()).all(|q| {
        let data = matches!(q.ty, Ty::Usize | Ty::Bool | Ty::Slice(_)) || q.fixed.is_some();
        plain(&q.ty) || (data && !matches!(q.ty, Ty::Struct | Ty::PassedEnum))
    });
    let helpers: Vec<&Func> = (p.funcs.iter()).filter(|g| g.name != f.name).collect();
    let untyped_call = |s: &Stmt| {
        let Stmt::Let {
            ty: None, value, ..
        } = s
        else {
            return false;
        };
        let v = value.trim_start_matches('(');
        let v = (v
            .strip_prefix("inner::")
            .or_else(|| v.strip_prefix("super::")))
        .unwrap_or(v);
        (helpers.iter()).any(|g| {
            v.starts_with(&format!("{}(", g.name)) || v.starts_with(&format!("{}::<", g.name))
        })
    };
    let untyped = f.body.iter().any(|s| s.any(&untyped_call));
    params && plain(&f.ret) && !untyped && !f.calls_nested
}

/// The type of `ty`'s lanes: each float a `[F; LANES]`.
fn lanes_ty(ty: &Ty, float: &str) -> String {
    match ty {
        Ty::Array(elem, len) => format!("[{}; {}]", lanes_ty(elem, float), len.value()),
        Ty::Tuple(items) => {
            let items: Vec<_> = items.iter().map(|t| lanes_ty(t, float)).collect();
            format!("({},)", items.join(", "))
        }
        _ => format!("[{float}; {LANES}]"),
    }
}

/// `f_jvp_vec::<.., 3>` along three seeded directions: the value against the primal, each
/// lane against `f_jvp` along its direction (`tan` in scope from the `f_jvp` check).
fn lanes_check(
    f: &Func,
    differentiated: &[&crate::ast::Param],
    (args, turbofish): (&str, &str),
    (float, d_tys): (&str, &str),
    narrowed: bool,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "        let lanes_dirs: Vec<Vec<f64>> = (0..{LANES}).map(|_| ctx.seed(crate::flat(&tan).len())).collect();\n        let mut lanes_at = 0;"
    );
    let mut t_args = String::new();
    for (k, q) in differentiated.iter().enumerate() {
        let ty = lanes_ty(&q.ty, float);
        let _ = writeln!(
            s,
            "        let lanes_n = crate::flat(&tan.{k}).len();\n        let lanes{k}: {ty} = crate::unflat(&(0..lanes_n).flat_map(|lanes_i| (0..{LANES}).map(|lanes_l| lanes_dirs[lanes_l][lanes_at + lanes_i]).collect::<Vec<f64>>()).collect::<Vec<f64>>());\n        lanes_at += lanes_n;"
        );
        let _ = match q.ty {
            Ty::Float => write!(t_args, ", lanes{k}"),
            _ => write!(t_args, ", &lanes{k}"),
        };
    }
    let turbofish = match turbofish.strip_suffix('>') {
        Some(t) => format!("{t}, {LANES}>"),
        None => format!("::<{LANES}>"),
    };
    let path = f.path();
    let one: String = (differentiated.iter().enumerate())
        .map(|(k, q)| match q.ty {
            Ty::Float => format!(", lanes_one.{k}"),
            _ => format!(", &lanes_one.{k}"),
        })
        .collect();
    let _ = writeln!(
        s,
        "        let (lanes_v, lanes_t) = t::{path}_jvp_vec{turbofish}({args}{t_args});\n        ctx.same(\"jvp_vec value == primal\", &crate::flat(&lanes_v), &crate::flat(&primal));\n        let lanes_t = crate::flat(&lanes_t);\n        for lanes_l in 0..{LANES} {{\n            let lanes_one: {d} = crate::unflat(&lanes_dirs[lanes_l]);\n            let (_, lanes_jl) = t::{path}_jvp{plain}({args}{one});\n            let lanes_got: Vec<f64> = lanes_t.iter().skip(lanes_l).step_by({LANES}).copied().collect();\n            ctx.close(\"jvp_vec lane == jvp\", &lanes_got, &crate::flat(&lanes_jl), {narrowed});\n        }}",
        d = d_tys,
        plain = f.turbofish(),
    );
    s
}

/// `p.f_m_grad(..)` and `p.f_m_jvp(..)` against `f_grad` and `f_jvp` (in scope as `once`,
/// `jt`, `tan`): the method lists `self` first, so its gradient is reordered into the
/// function's parameter order before the bitwise comparison.
fn method_checks(f: &Func, differentiated: &[&crate::ast::Param], turbofish: &str) -> String {
    let path = f.path();
    let (args, grad) = method_call(f, differentiated, None, "mg");
    let (t_args, _) = method_call(f, differentiated, Some("tan"), "mjt");
    format!(
        "        let (mv, mg) = p.{path}_m_grad{turbofish}({args});
        ctx.same(\"method grad value == primal\", &crate::flat(&mv), &crate::flat(&primal));
        ctx.same(\"method gradient == gradient\", &crate::flat(&{grad}), &once);
        let (_, mjt) = p.{path}_m_jvp{turbofish}({t_args});
        ctx.same(\"method jvp == jvp\", &crate::flat(&mjt), &crate::flat(&jt));
"
    )
}

/// `p.f_m_hvp(..)` against `f_hvp` (in scope as `hv`, along `vt`): the same bits.
fn method_hvp_check(f: &Func, differentiated: &[&crate::ast::Param], turbofish: &str) -> String {
    let path = f.path();
    let (args, mhv) = method_call(f, differentiated, Some("vt"), "mhv");
    format!(
        "        let (_, _, mhv) = p.{path}_m_hvp{turbofish}({args});
        ctx.same(\"method hvp == hvp\", &crate::flat(&{mhv}), &crate::flat(&hv));
"
    )
}

/// A call of the method form of `f`: its arguments (every parameter but `p`, which is `self`,
/// then with `dirs` the direction of each differentiated parameter, `dirs.k`, in the method's
/// order: `self` first), and the method's gradient-shaped result `r` put back into the
/// function's parameter order.
fn method_call(
    f: &Func,
    differentiated: &[&crate::ast::Param],
    dirs: Option<&str>,
    r: &str,
) -> (String, String) {
    let mut order: Vec<usize> = (0..differentiated.len()).collect();
    order.sort_by_key(|&k| differentiated[k].name != "p");
    let mut args: Vec<String> = f
        .params
        .iter()
        .filter(|q| q.name != "p")
        .map(|q| q.arg(&q.name))
        .collect();
    if let Some(d) = dirs {
        for &k in &order {
            args.push(match differentiated[k].ty {
                Ty::Float => format!("{d}.{k}"),
                _ => format!("&{d}.{k}"),
            });
        }
    }
    let position = |k: usize| order.iter().position(|&o| o == k).expect("a permutation");
    let reordered = if differentiated.len() == 1 {
        r.to_string()
    } else {
        let parts: Vec<String> = (0..differentiated.len())
            .map(|k| format!("{r}.{}", position(k)))
            .collect();
        format!("({},)", parts.join(", "))
    };
    (args.join(", "), reordered)
}

/// `src/main.rs` of the generated workspace's binary: every part's programs, checked in order.
pub fn main_rs(parts: usize) -> String {
    let mut s = String::from(
        "#![allow(warnings, clippy::all)]\nfn main() {\n    let mut args = std::env::args().skip(1);\n    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);\n    let points: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);\n    let programs: Vec<(&str, genprog_prelude::Checks)> = [\n",
    );
    for k in 0..parts {
        let _ = writeln!(s, "        part_{k}::PROGRAMS,");
    }
    s.push_str("    ]\n    .concat();\n    genprog_prelude::run(seed, points, &programs);\n}\n");
    s
}

/// `src/lib.rs` of a part: its programs that compile (each program's `crate::Flat`, `crate::Ctx`
/// reach the checker through the glob).
pub fn part_rs(programs: &[&str]) -> String {
    let mut s = String::from("#![allow(warnings, clippy::all)]\npub use genprog_prelude::*;\n");
    for p in programs {
        let _ = writeln!(s, "mod {p};");
    }
    s.push_str("\npub const PROGRAMS: &[(&str, Checks)] = &[\n");
    for p in programs {
        let _ = writeln!(s, "    (\"{p}\", {p}::CHECKS),");
    }
    s.push_str("];\n");
    s
}

/// `Cargo.toml` of the generated workspace: the binary that runs the checks, the checker
/// (`prelude/`) and the programs in `parts` crates (`part-K/`), which cargo builds side by side.
/// The programs name `stackgrad::differentiable`, as users write it: the dependency called
/// `stackgrad` is the macro's crate (`autodiff-macros` at `macros`, with `alloc` as `stackgrad`'s
/// default features have it), what `stackgrad` re-exports under that name. The runtime is not
/// built for them (in the generated workspace's own target directory it took longer than
/// the macro's crates by minutes), and code the macro generates that needed more than
/// `::core` and the user's paths would fail to compile here. The macro is built unoptimized, as
/// `dev` builds proc-macros: on 2 cores (seed 1, 300 programs, `cargo build` of the generated
/// workspace in a new target directory with `CARGO_INCREMENTAL=0`) the build took 181 s, the
/// macro 14 s of it and the two parts 159 s side by side, against 222 s (65 s, 133 s) at
/// `opt-level = 1` and 285 s (118 s, 139 s) at `opt-level = 3`: the expansions run slower, but
/// not by as much as the optimized macro takes to build. Not incremental: every run builds new
/// programs, and writing the caches costs time (`genprog` with the macro and the parts to
/// build took 239 s with them, 170 s without).
pub fn cargo_toml(macros: &str, parts: usize) -> String {
    let mut s = String::from(
        "[package]\nname = \"genprog-run\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\ngenprog-prelude = { path = \"prelude\" }\n",
    );
    for k in 0..parts {
        let _ = writeln!(s, "part-{k} = {{ path = \"part-{k}\" }}");
    }
    let _ = write!(
        s,
        "\n[workspace]\nresolver = \"3\"\n\n[workspace.dependencies]\nstackgrad = {{ package = \"autodiff-macros\", path = {macros:?}, features = [\"alloc\"] }}\n\n[profile.dev]\ndebug = false\nincremental = false\n"
    );
    s
}

/// `Cargo.toml` of the checker's crate.
pub const PRELUDE_TOML: &str = "[package]\nname = \"genprog-prelude\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n";

/// `Cargo.toml` of part `k`.
pub fn part_toml(k: usize) -> String {
    format!(
        "[package]\nname = \"part-{k}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\ngenprog-prelude = {{ path = \"../prelude\" }}\nstackgrad = {{ workspace = true }}\n"
    )
}
