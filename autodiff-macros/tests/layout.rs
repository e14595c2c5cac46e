//! The macro's source reads as its pipeline: every pass imports only the passes before it and
//! the shared leaves, leaves import no pass, no two modules import each other (directly or round
//! a circle), and no file or function is long. Read from `src/` as text: a `crate::m` anywhere in
//! a file of module `m2` is an import of `m` by `m2`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The passes in pipeline order; `params` (the `Parameters` derive) stands apart.
const PASSES: &[&str] = &[
    "args",
    "methods",
    "lower",
    "analysis",
    "plan",
    "fused",
    "forward",
    "reverse",
    "tangent",
    "items",
    "hvp",
    "nested",
    "jacobian",
    "jacobian_tuple",
    "expand",
];
/// Shared leaves: data types, walks, index analysis, names, printing, rules, the tape layout.
const LEAVES: &[&str] = &[
    "ir", "walk", "affine", "names", "attrs", "print", "rules", "tape", "types", "contract",
];
const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 120;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to: `reverse/values.rs` -> `reverse`.
fn module(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_str()
        .unwrap();
    first.trim_end_matches(".rs").to_string()
}

/// The modules a file names as `crate::m`.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap();
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
            // `use crate::{a, b}`.
            if rest.starts_with('{') {
                let group = &rest[1..rest.find('}').unwrap_or(rest.len())];
                for part in group.split(',') {
                    let name = part.trim().split("::").next().unwrap().trim();
                    if !name.is_empty() {
                        out.insert(name.to_string());
                    }
                }
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let m = module(&src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        let deps = graph.entry(m.clone()).or_default();
        deps.extend(imports(&text).into_iter().filter(|d| *d != m));
    }
    graph
}

#[test]
fn passes_import_only_earlier_passes_and_leaves() {
    let graph = graph();
    for (m, deps) in &graph {
        for d in deps {
            let ok = match (
                PASSES.iter().position(|p| p == m),
                PASSES.iter().position(|p| p == d),
            ) {
                // A pass may use an earlier pass and any leaf.
                (Some(i), Some(j)) => j < i,
                (Some(_), None) => LEAVES.contains(&d.as_str()),
                // A leaf uses leaves only; `lib` and `params` stand outside the pipeline.
                (None, Some(_)) => m == "lib",
                (None, None) => true,
            };
            assert!(ok, "`{m}` imports `{d}`: against the pipeline order");
        }
    }
    assert!(
        graph.contains_key("plan") && graph.contains_key("reverse"),
        "the layout test did not find the passes: {:?}",
        graph.keys()
    );
}

#[test]
fn no_import_cycle() {
    let graph = graph();
    // Depth-first search for a back edge.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if let Some(i) = path.iter().position(|p| p == m) {
            panic!("import cycle: {} -> {m}", path[i..].join(" -> "));
        }
        if done.contains(m) {
            return;
        }
        path.push(m.to_string());
        for d in graph.get(m).into_iter().flatten() {
            visit(d, graph, path, done);
        }
        path.pop();
        done.insert(m.to_string());
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn files_and_functions_are_short() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut long = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let name = file.strip_prefix(&src).unwrap().display().to_string();
        // Unit tests at the end of a file do not count.
        let code = lines
            .iter()
            .position(|l| l.starts_with("#[cfg(test)]"))
            .unwrap_or(lines.len());
        if code > MAX_FILE_LINES {
            long.push(format!("{name}: {code} lines"));
        }
        // A function runs from its `fn` line to the closing brace at its indentation.
        for (i, l) in lines[..code].iter().enumerate() {
            let trimmed = l.trim_start();
            let indent = l.len() - trimmed.len();
            let is_fn = ["fn ", "pub fn ", "pub(super) fn ", "pub(crate) fn "]
                .iter()
                .any(|p| trimmed.starts_with(p));
            if !is_fn || trimmed.ends_with(';') {
                continue;
            }
            let close = format!("{}}}", " ".repeat(indent));
            if let Some(len) = lines[i..code].iter().position(|x| *x == close)
                && len + 1 > MAX_FN_LINES
            {
                long.push(format!("{name}:{}: a function of {} lines", i + 1, len + 1));
            }
        }
    }
    assert!(long.is_empty(), "too long:\n{}", long.join("\n"));
}
