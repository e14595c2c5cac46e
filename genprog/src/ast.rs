//! Generated programs: items and statements as data, expressions as text.
//!
//! Expressions are built as source text by the generator; they name the float type through two
//! placeholders, `$F` (the program's float type) and `$H` (the other one, for mixed casts). A
//! program is printed in two modes: the `test` module under `#[differentiable]` with the float
//! type under test, and the `r` module, plain Rust in f64 without the macro's attributes, whose
//! primal is the reference for finite differences.

use std::fmt::Write;

/// How a program is printed.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    /// `$F`.
    pub float: &'static str,
    /// `$H`.
    pub other: &'static str,
    /// `#[differentiable]` and the loop and `let` attributes it reads.
    pub macros: bool,
    /// `#[record(f32)]` (which rounds what the reverse sweep reads): not in a reference.
    pub records: bool,
}

impl Mode {
    /// The reference: plain f64 Rust.
    pub const REFERENCE: Mode = Mode {
        float: "f64",
        other: "f64",
        macros: false,
        records: false,
    };

    /// A `nested` helper in the reference twin: the macro (its gradient is called), in f64
    /// without rounding, casts included, and without `#[record(f32)]`.
    pub const REFERENCE_NESTED: Mode = Mode {
        float: "f64",
        other: "f64",
        macros: true,
        records: false,
    };

    /// The module under test for a program in `float`.
    pub fn test(float: Float) -> Mode {
        match float {
            Float::F64 => Mode {
                float: "f64",
                other: "f32",
                macros: true,
                records: true,
            },
            Float::F32 => Mode {
                float: "f32",
                other: "f64",
                macros: true,
                records: true,
            },
        }
    }

    /// `text` with the float placeholders replaced.
    pub fn subst(&self, text: &str) -> String {
        text.replace("$F", self.float).replace("$H", self.other)
    }
}

/// The float type a program is tested in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    F64,
    F32,
}

/// An array length: a literal, or a `const` item or const generic parameter with its value.
#[derive(Clone, Debug, PartialEq)]
pub enum Len {
    Lit(usize),
    Named(String, usize),
}

impl Len {
    pub fn value(&self) -> usize {
        match self {
            Len::Lit(n) | Len::Named(_, n) => *n,
        }
    }

    pub fn text(&self) -> String {
        match self {
            Len::Lit(n) => n.to_string(),
            Len::Named(name, _) => name.clone(),
        }
    }
}

/// Parameter and return types.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `$F`.
    Float,
    /// `usize`, never differentiated.
    Usize,
    /// The program's fieldless enum `E { A, B, C }`, by value (`mode: E`) or, in a helper that
    /// matches on it, by reference (`mode: &E`): never differentiated.
    Enum,
    /// `&E` the function under test only passes on to helpers (`em`), never matching on it: the
    /// macro takes it for a struct only passed on, differentiated by default, its zero a copy.
    PassedEnum,
    /// `bool`, never differentiated.
    Bool,
    /// `[elem; len]`.
    Array(Box<Ty>, Len),
    /// The program's struct, `S`.
    Struct,
    /// `(a, b, ..)`.
    Tuple(Vec<Ty>),
    /// `[$F]`, a slice of data the harness fixes (its values, in 64ths), never differentiated.
    Slice(Vec<i32>),
}

impl Ty {
    /// A float array with the given dimensions, outermost first.
    pub fn floats(dims: &[Len]) -> Ty {
        dims.iter().rev().fold(Ty::Float, |elem, len| {
            Ty::Array(Box::new(elem), len.clone())
        })
    }

    /// The type as written, with `$F` for the float type.
    pub fn text(&self) -> String {
        match self {
            Ty::Float => "$F".into(),
            Ty::Usize => "usize".into(),
            Ty::Enum | Ty::PassedEnum => "E".into(),
            Ty::Bool => "bool".into(),
            Ty::Array(elem, len) => format!("[{}; {}]", elem.text(), len.text()),
            Ty::Struct => "S".into(),
            Ty::Tuple(items) => {
                let items: Vec<_> = items.iter().map(Ty::text).collect();
                format!("({})", items.join(", "))
            }
            Ty::Slice(_) => "[$F]".into(),
        }
    }

    /// Whether the type holds floats (and so is differentiated as a parameter).
    pub fn has_floats(&self) -> bool {
        match self {
            Ty::Float | Ty::Struct => true,
            Ty::Usize | Ty::Enum | Ty::PassedEnum | Ty::Bool | Ty::Slice(_) => false,
            Ty::Array(elem, _) => elem.has_floats(),
            Ty::Tuple(items) => items.iter().any(Ty::has_floats),
        }
    }
}

/// A function parameter; arrays and the struct are taken by reference unless `by_value`.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
    pub by_value: bool,
    /// For a `usize` array (an index table): its fixed contents in the harness.
    pub fixed: Option<Vec<usize>>,
}

impl Param {
    pub fn text(&self) -> String {
        let by_ref = matches!(
            self.ty,
            Ty::Array(..) | Ty::Struct | Ty::Slice(_) | Ty::Enum | Ty::PassedEnum
        ) && !self.by_value;
        format!(
            "{}: {}{}",
            self.name,
            if by_ref { "&" } else { "" },
            self.ty.text()
        )
    }

    /// How the harness passes a value named `value`.
    pub fn arg(&self, value: &str) -> String {
        let by_ref = matches!(
            self.ty,
            Ty::Array(..) | Ty::Struct | Ty::Slice(_) | Ty::Enum | Ty::PassedEnum
        ) && !self.by_value;
        format!("{}{value}", if by_ref { "&" } else { "" })
    }
}

/// The attribute of a `for` loop.
#[derive(Clone, Debug)]
pub enum Checkpoint {
    Every,
    Snapshots(usize),
    Binomial(usize),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Let {
        name: String,
        mutable: bool,
        ty: Option<String>,
        value: String,
        recompute: bool,
        /// `#[record(f32)]`: the tape keeps the (f64) value as f32.
        record: bool,
    },
    /// `place op value;` with `op` one of `= += -= *= /=`.
    Assign {
        place: String,
        op: &'static str,
        value: String,
    },
    If {
        arms: Vec<(String, Vec<Stmt>)>,
        els: Option<Vec<Stmt>>,
    },
    For {
        /// `'l: for ..`, which `break 'l` / `continue 'l` leave from loops inside it.
        label: Option<String>,
        checkpoint: Option<Checkpoint>,
        pat: String,
        iter: String,
        body: Vec<Stmt>,
    },
    While {
        max_iters: usize,
        cond: String,
        body: Vec<Stmt>,
    },
    Loop {
        max_iters: usize,
        body: Vec<Stmt>,
    },
    Break,
    Continue,
    /// `break 'l;` and `continue 'l;` of the enclosing `for` labelled `'l`.
    BreakTo(String),
    ContinueTo(String),
    Return(String),
    /// An expression statement, `h.swap(0, i);`.
    Expr(String),
}

impl Stmt {
    /// The blocks the statement holds: an `if`'s arms and `else`, a loop's body.
    pub fn blocks(&self) -> Vec<&[Stmt]> {
        match self {
            Stmt::If { arms, els } => {
                let mut out: Vec<&[Stmt]> = arms.iter().map(|(_, b)| b.as_slice()).collect();
                out.extend(els.as_deref());
                out
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } | Stmt::Loop { body, .. } => {
                vec![body]
            }
            _ => Vec::new(),
        }
    }

    /// Whether the statement or one nested in it satisfies `p`.
    pub fn any(&self, p: &dyn Fn(&Stmt) -> bool) -> bool {
        p(self) || (self.blocks().iter()).any(|b| b.iter().any(|s| s.any(p)))
    }

    /// Every text of the statement (a value, a condition, a place, an iterator), and of the
    /// statements nested in it.
    pub fn texts<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Stmt::Let { value, .. } | Stmt::Return(value) | Stmt::Expr(value) => out.push(value),
            Stmt::Assign { place, value, .. } => out.extend([place.as_str(), value.as_str()]),
            Stmt::If { arms, .. } => out.extend(arms.iter().map(|(c, _)| c.as_str())),
            Stmt::For { iter, .. } => out.push(iter),
            Stmt::While { cond, .. } => out.push(cond),
            Stmt::Loop { .. }
            | Stmt::Break
            | Stmt::Continue
            | Stmt::BreakTo(_)
            | Stmt::ContinueTo(_) => {}
        }
        for b in self.blocks() {
            for s in b {
                s.texts(out);
            }
        }
    }

    /// Whether the statement is or holds a `#[record(f32)] let`.
    pub fn has_record(&self) -> bool {
        self.any(&|s| matches!(s, Stmt::Let { record: true, .. }))
    }

    /// Whether any text of the statement (a value, a condition, a place, nested statements)
    /// contains `needle`.
    pub fn mentions(&self, needle: &str) -> bool {
        let mut texts = Vec::new();
        self.texts(&mut texts);
        texts.iter().any(|t| t.contains(needle))
    }

    /// Whether the statement holds a `while` or `loop` (so the function has `f_try_forward`).
    pub fn has_bounded_loop(&self) -> bool {
        self.any(&|s| matches!(s, Stmt::While { .. } | Stmt::Loop { .. }))
    }
}

/// A generated function.
#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    /// Const generic parameters with the value the harness instantiates them at.
    pub generics: Vec<(String, usize)>,
    pub params: Vec<Param>,
    pub ret: Ty,
    pub body: Vec<Stmt>,
    pub tail: String,
    /// `#[differentiable(wrt(..))]`: the parameters differentiated, when not all of them.
    pub wrt: Option<Vec<String>>,
    /// Whether the function sits in the program's `inner` module.
    pub inner: bool,
    /// `#[differentiable(nested)]`: callers may call its `_grad_<param>` items.
    pub nested: bool,
    /// It calls a `_grad_<param>` item of a `nested` helper (second order of it would be third
    /// order of the helper; the reference twin calls the same item) or a helper returning a
    /// tuple (which has no `hvp`): `jvp` only.
    pub calls_nested: bool,
}

impl Func {
    /// The parameters whose gradient the generated functions return, in order.
    pub fn differentiated(&self) -> Vec<&Param> {
        self.params
            .iter()
            .filter(|p| {
                // An enum only passed on is differentiated by default (its zero a copy).
                p.ty.has_floats() || (p.ty == Ty::PassedEnum && self.wrt.is_none())
            })
            .filter(|p| self.wrt.as_ref().is_none_or(|w| w.contains(&p.name)))
            .filter(|p| !(p.ty == Ty::Struct && self.wrt.is_none() && self.in_conditions_only(p)))
            .collect()
    }

    /// A struct parameter named only in conditions (`if g(x, p) > 0.5`, `while ..`), never
    /// by a field (`p.w[0]`): no derivative reaches it through a value, and without
    /// `wrt(..)` the macro takes it as data (`lower/whole.rs`, `not_passed_on`), with no
    /// gradient. (Text by text: a condition inside a value, `let v = if g(p) > 0.5 { .. }`,
    /// counts as a value here.)
    fn in_conditions_only(&self, p: &Param) -> bool {
        let (mut conditions, mut values) = (Vec::new(), vec![self.tail.as_str()]);
        fn walk<'a>(stmts: &'a [Stmt], conditions: &mut Vec<&'a str>, values: &mut Vec<&'a str>) {
            for s in stmts {
                match s {
                    Stmt::If { arms, .. } => {
                        conditions.extend(arms.iter().map(|(c, _)| c.as_str()))
                    }
                    // A `bool` local's value (`let b6 = g(x, p) <= z;`, feature `bools`)
                    // carries no derivative, as a condition does.
                    Stmt::Let { name, value, .. }
                    | Stmt::Assign {
                        place: name, value, ..
                    } if is_bool_name(name) => conditions.push(value),
                    Stmt::While { cond, .. } => conditions.push(cond),
                    Stmt::For { iter, .. } => values.push(iter),
                    Stmt::Loop { .. }
                    | Stmt::Break
                    | Stmt::Continue
                    | Stmt::BreakTo(_)
                    | Stmt::ContinueTo(_) => {}
                    _ => {
                        let mut own = Vec::new();
                        s.texts(&mut own);
                        values.extend(own);
                        continue;
                    }
                }
                for b in s.blocks() {
                    walk(b, conditions, values);
                }
            }
        }
        walk(&self.body, &mut conditions, &mut values);
        let named = |t: &&str| word_at(t, &p.name).next().is_some();
        let field = |t: &&str| word_at(t, &p.name).any(|end| t[end..].starts_with('.'));
        conditions.iter().any(named) && !values.iter().any(named) && !conditions.iter().any(field)
    }

    /// `<const N: usize, ..>` as declared, empty without generics.
    pub fn generics_decl(&self) -> String {
        if self.generics.is_empty() {
            return String::new();
        }
        let g: Vec<_> = self
            .generics
            .iter()
            .map(|(n, _)| format!("const {n}: usize"))
            .collect();
        format!("<{}>", g.join(", "))
    }

    /// `::<3, 2>` for the harness, empty without generics.
    pub fn turbofish(&self) -> String {
        if self.generics.is_empty() {
            String::new()
        } else {
            let values: Vec<_> = self.generics.iter().map(|(_, v)| v.to_string()).collect();
            format!("::<{}>", values.join(", "))
        }
    }

    pub fn has_bounded_loop(&self) -> bool {
        self.body.iter().any(Stmt::has_bounded_loop)
    }

    /// The path of the function from the program's module (`g` or `inner::g`).
    pub fn path(&self) -> String {
        if self.inner {
            format!("inner::{}", self.name)
        } else {
            self.name.clone()
        }
    }

    /// The tape type: `my_fn` -> `MyFnTape`.
    pub fn tape(&self) -> String {
        let mut s: String = self
            .name
            .split('_')
            .map(|part| {
                let mut c = part.chars();
                c.next()
                    .map(|first| first.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            })
            .collect();
        s.push_str("Tape");
        s
    }
}

/// A `const` item: name, type (`$F` or `usize`) and value.
#[derive(Clone, Debug)]
pub struct Const {
    pub name: String,
    pub ty: String,
    pub value: String,
}

/// A generated program: its items, printed as one module.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub float: Float,
    /// Whether the program casts to `$H` (then its f64 reference differs from it in rounding).
    pub mixed: bool,
    pub consts: Vec<Const>,
    /// The fields of struct `S`, if the program has one.
    pub fields: Vec<(String, Ty)>,
    /// Helpers first (callees before callers), the function under test last.
    pub funcs: Vec<Func>,
    /// The function under test takes `mode: E` (feature `enum-params`): `E` is declared
    /// beside the modules, which import it.
    pub enum_param: bool,
    /// The function under test is also printed as the method `f_m(&self, ..)` of `S`, its
    /// struct parameter `p` as `self` (feature `impl-methods`).
    pub method: bool,
    /// The helpers that take the struct are methods of the same `impl` too, which the methods
    /// call as `self.g_m(..)` (feature `method-calls`).
    pub method_calls: bool,
}

/// Source text with the line each function starts and ends at (1-based, in the printed text).
pub struct Printed {
    pub text: String,
    pub spans: Vec<(String, usize, usize)>,
}

/// Appends `text` to `out` with line tracking done by the caller through `out`'s line count.
fn line(out: &mut String, depth: usize, text: &str) {
    for _ in 0..depth {
        out.push_str("    ");
    }
    out.push_str(text);
    out.push('\n');
}

impl Program {
    /// Prints the program as the body of a module (`pub mod t { .. }` is the caller's), at
    /// indentation `depth`. `first_line` is the line of the file the text will start at.
    pub fn print(&self, mode: Mode, depth: usize, first_line: usize) -> Printed {
        let mut out = String::new();
        let mut spans = Vec::new();
        // The reference twin compiles `nested` helpers with the macro too: the function under
        // test calls their generated gradients, and so does the twin.
        let nested = self.funcs.iter().any(|f| f.nested);
        if mode.macros || nested {
            line(&mut out, depth, "#[allow(unused_imports)]");
            line(&mut out, depth, "use stackgrad::differentiable;");
        }
        if self.enum_param {
            line(&mut out, depth, "pub use super::E;");
        }
        for c in &self.consts {
            line(
                &mut out,
                depth,
                &mode.subst(&format!("pub const {}: {} = {};", c.name, c.ty, c.value)),
            );
        }
        if !self.fields.is_empty() {
            line(&mut out, depth, "#[derive(Default, Clone, Copy, Debug)]");
            line(&mut out, depth, "pub struct S {");
            for (name, ty) in &self.fields {
                line(
                    &mut out,
                    depth + 1,
                    &mode.subst(&format!("pub {name}: {},", ty.text())),
                );
            }
            line(&mut out, depth, "}");
        }
        let (outer, inner): (Vec<&Func>, Vec<&Func>) = self.funcs.iter().partition(|f| !f.inner);
        if !inner.is_empty() {
            line(&mut out, depth, "pub mod inner {");
            line(&mut out, depth + 1, "#![allow(unused_imports)]");
            line(&mut out, depth + 1, "use super::*;");
            for f in inner {
                print_func(
                    &mut out,
                    &mut spans,
                    f,
                    helper_mode(f, mode),
                    depth + 1,
                    first_line,
                );
            }
            line(&mut out, depth, "}");
        }
        for f in outer {
            print_func(
                &mut out,
                &mut spans,
                f,
                helper_mode(f, mode),
                depth,
                first_line,
            );
        }
        if self.method && mode.macros {
            let (f, helpers) = self.funcs.split_last().expect("the function under test");
            let helpers: Vec<&Func> = (helpers.iter())
                .filter(|h| self.method_calls && as_method(h))
                .collect();
            print_method(&mut out, &mut spans, (f, &helpers), mode, depth, first_line);
        }
        Printed { text: out, spans }
    }
}

/// How `f` is printed in `mode`: a `nested` helper keeps the macro in the f64 reference twin.
fn helper_mode(f: &Func, mode: Mode) -> Mode {
    if f.nested && !mode.macros {
        Mode::REFERENCE_NESTED
    } else {
        mode
    }
}

fn print_func(
    out: &mut String,
    spans: &mut Vec<(String, usize, usize)>,
    f: &Func,
    mode: Mode,
    depth: usize,
    first_line: usize,
) {
    let start = first_line + out.lines().count();
    if mode.macros {
        let order = order(f);
        match &f.wrt {
            Some(wrt) => line(
                out,
                depth,
                &format!("#[differentiable(wrt({}), {order})]", wrt.join(", ")),
            ),
            None => line(out, depth, &format!("#[differentiable({order})]")),
        }
    }
    let generics = f.generics_decl();
    let params: Vec<_> = f.params.iter().map(Param::text).collect();
    line(
        out,
        depth,
        &mode.subst(&format!(
            "pub fn {}{generics}({}) -> {} {{",
            f.name,
            params.join(", "),
            f.ret.text()
        )),
    );
    print_block(out, &f.body, mode, depth + 1);
    line(out, depth + 1, &mode.subst(&f.tail));
    line(out, depth, "}");
    let end = first_line + out.lines().count() - 1;
    spans.push((f.path(), start, end));
}

/// What a function's `#[differentiable(..)]` (and its method form's) asks for besides the
/// gradient: second order wherever it has one output of floats (`hvp` implies `jvp`).
fn order(f: &Func) -> &'static str {
    if f.nested {
        "nested"
    } else if matches!(f.ret, Ty::Tuple(_)) || f.calls_nested {
        "jvp"
    } else {
        "hvp"
    }
}

/// Whether helper `h` is printed as a method too (`method-calls`): a float- or array-valued
/// function of the struct `p`, in the outer module, without constants or `nested`.
pub fn as_method(h: &Func) -> bool {
    !h.inner
        && h.generics.is_empty()
        && !h.nested
        && !matches!(h.ret, Ty::Tuple(_))
        && h.params.iter().any(|q| q.name == "p" && q.ty == Ty::Struct)
}

/// The function under test as a method of `S`, and the helpers that take the struct as its
/// fellow methods (`p` becomes `self`, the others keep their order). Each method's
/// `#[wrt(..)]` lists what the function differentiates (`self` for `p`), since a method is
/// differentiated in `self` alone by default; a call of a helper that is a method becomes
/// `self.g_m(..)`.
fn print_method(
    out: &mut String,
    spans: &mut Vec<(String, usize, usize)>,
    (f, helpers): (&Func, &[&Func]),
    mode: Mode,
    depth: usize,
    first_line: usize,
) {
    let start = first_line + out.lines().count();
    line(out, depth, &format!("#[differentiable({})]", order(f)));
    line(out, depth, "impl S {");
    for m in helpers.iter().copied().chain([f]) {
        let wrt: Vec<String> = (m.differentiated().iter())
            .map(|q| {
                if q.name == "p" {
                    "self".into()
                } else {
                    q.name.clone()
                }
            })
            .collect();
        line(out, depth + 1, &format!("#[wrt({})]", wrt.join(", ")));
        let generics = m.generics_decl();
        let mut params = vec!["&self".to_string()];
        params.extend(m.params.iter().filter(|q| q.name != "p").map(Param::text));
        line(
            out,
            depth + 1,
            &mode.subst(&format!(
                "pub fn {}_m{generics}({}) -> {} {{",
                m.name,
                params.join(", "),
                m.ret.text()
            )),
        );
        let mut body = String::new();
        print_block(&mut body, &m.body, mode, depth + 2);
        line(&mut body, depth + 2, &mode.subst(&m.tail));
        out.push_str(&rename_p(&method_calls(&body, helpers)));
        line(out, depth + 1, "}");
    }
    line(out, depth, "}");
    let end = first_line + out.lines().count() - 1;
    spans.push((format!("{}_m", f.path()), start, end));
}

/// `g(x, p, &a)` -> `p.g_m(x, &a)` for each helper `g` that is a method (`p` then becomes
/// `self`), in arguments too.
fn method_calls(text: &str, helpers: &[&Func]) -> String {
    let chars: Vec<char> = text.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    'scan: while i < chars.len() {
        let free = i == 0 || !(word(chars[i - 1]) || chars[i - 1] == ':' || chars[i - 1] == '.');
        if free {
            for h in helpers {
                let name: Vec<char> = h.name.chars().collect();
                let end = i + name.len();
                if chars[i..].starts_with(&name) && chars.get(end) == Some(&'(') {
                    let (args, close) = split_args(&chars, end);
                    let p = h.params.iter().position(|q| q.name == "p");
                    let kept: Vec<String> = (args.iter().enumerate())
                        .filter(|(k, _)| Some(*k) != p)
                        .map(|(_, a)| method_calls(a.trim(), helpers))
                        .collect();
                    out.push_str(&format!("p.{}_m({})", h.name, kept.join(", ")));
                    i = close + 1;
                    continue 'scan;
                }
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The arguments of the call whose `(` is at `open`, split at its top-level commas, and the
/// position of its `)`.
fn split_args(chars: &[char], open: usize) -> (Vec<String>, usize) {
    let (mut depth, mut args, mut cur) = (0usize, Vec::new(), String::new());
    for (k, &c) in chars.iter().enumerate().skip(open + 1) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => {
                if !cur.trim().is_empty() {
                    args.push(cur);
                }
                return (args, k);
            }
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    (args, chars.len())
}

/// `p` -> `self` wherever it is a whole word (generated locals never are `p`).
fn rename_p(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for (i, &c) in chars.iter().enumerate() {
        let alone = c == 'p'
            && (i == 0 || !word(chars[i - 1]))
            && chars.get(i + 1).is_none_or(|&n| !word(n));
        if alone {
            out.push_str("self");
        } else {
            out.push(c);
        }
    }
    out
}

fn print_block(out: &mut String, stmts: &[Stmt], mode: Mode, depth: usize) {
    for s in stmts {
        print_stmt(out, s, mode, depth);
    }
}

fn print_stmt(out: &mut String, s: &Stmt, mode: Mode, depth: usize) {
    match s {
        Stmt::Let {
            name,
            mutable,
            ty,
            value,
            recompute,
            record,
        } => {
            if *recompute && mode.macros {
                line(out, depth, "#[recompute]");
            }
            if *record && mode.records {
                line(out, depth, "#[record(f32)]");
            }
            let mut text = format!("let {}{name}", if *mutable { "mut " } else { "" });
            if let Some(ty) = ty {
                let _ = write!(text, ": {ty}");
            }
            let _ = write!(text, " = {value};");
            line(out, depth, &mode.subst(&text));
        }
        Stmt::Assign { place, op, value } => {
            line(out, depth, &mode.subst(&format!("{place} {op} {value};")));
        }
        Stmt::If { arms, els } => {
            for (k, (cond, body)) in arms.iter().enumerate() {
                let head = if k == 0 {
                    format!("if {cond} {{")
                } else {
                    format!("}} else if {cond} {{")
                };
                line(out, depth, &mode.subst(&head));
                print_block(out, body, mode, depth + 1);
            }
            if let Some(els) = els {
                line(out, depth, "} else {");
                print_block(out, els, mode, depth + 1);
            }
            line(out, depth, "}");
        }
        Stmt::For {
            label,
            checkpoint,
            pat,
            iter,
            body,
        } => {
            if mode.macros {
                match checkpoint {
                    None => {}
                    Some(Checkpoint::Every) => line(out, depth, "#[checkpoint]"),
                    Some(Checkpoint::Snapshots(s)) => {
                        line(out, depth, &format!("#[checkpoint(snapshots = {s})]"));
                    }
                    Some(Checkpoint::Binomial(s)) => {
                        line(
                            out,
                            depth,
                            &format!("#[checkpoint(snapshots = {s}, binomial)]"),
                        );
                    }
                }
            }
            let label = label.as_ref().map_or(String::new(), |l| format!("'{l}: "));
            line(
                out,
                depth,
                &mode.subst(&format!("{label}for {pat} in {iter} {{")),
            );
            print_block(out, body, mode, depth + 1);
            line(out, depth, "}");
        }
        Stmt::While {
            max_iters,
            cond,
            body,
        } => {
            if mode.macros {
                line(out, depth, &format!("#[max_iters({max_iters})]"));
            }
            line(out, depth, &mode.subst(&format!("while {cond} {{")));
            print_block(out, body, mode, depth + 1);
            line(out, depth, "}");
        }
        Stmt::Loop { max_iters, body } => {
            if mode.macros {
                line(out, depth, &format!("#[max_iters({max_iters})]"));
            }
            line(out, depth, "loop {");
            print_block(out, body, mode, depth + 1);
            line(out, depth, "}");
        }
        Stmt::Break => line(out, depth, "break;"),
        Stmt::Continue => line(out, depth, "continue;"),
        Stmt::BreakTo(l) => line(out, depth, &format!("break '{l};")),
        Stmt::ContinueTo(l) => line(out, depth, &format!("continue '{l};")),
        Stmt::Return(value) => line(out, depth, &mode.subst(&format!("return {value};"))),
        Stmt::Expr(e) => line(out, depth, &mode.subst(&format!("{e};"))),
    }
}

/// Where `name` ends in `text` as a whole word (not a part of another name, a field or a path
/// segment of that name: `x.name`, `a::name`).
fn word_at<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).filter_map(move |(at, _)| {
        let end = at + name.len();
        let before = text[..at].chars().next_back();
        let after = text[end..].chars().next();
        let whole =
            !before.is_some_and(|c| word(c) || c == '.' || c == ':') && !after.is_some_and(word);
        whole.then_some(end)
    })
}

/// Whether `name` is a `bool` local's (`b6`: the generator's `b` and a number).
fn is_bool_name(name: &str) -> bool {
    name.strip_prefix('b')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}
