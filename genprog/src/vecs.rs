//! `vec-locals`: one-dimensional local arrays of the function under test that are only ever
//! indexed (`h[i]`, `h[i] = ..`, `h[i] += ..`) become `Vec`s of a run-time length,
//! `let mut h: Vec<$F> = vec![0.0; N];` or `vec![0.0_$F; N]`. The reference twin is printed from the same statements, so its
//! central differences check the same code.

use crate::ast::{Func, Stmt};
use rand::Rng;
use rand::rngs::SmallRng;

/// Turns some of `f`'s top-level arrays into `Vec`s; whether it turned any.
pub fn to_vecs(f: &mut Func, rng: &mut SmallRng) -> bool {
    let mut any = false;
    for k in 0..f.body.len() {
        let Stmt::Let {
            name,
            mutable: true,
            value,
            ..
        } = &f.body[k]
        else {
            continue;
        };
        let Some(len) = value
            .strip_prefix("[0.0; ")
            .and_then(|v| v.strip_suffix(']'))
            .filter(|l| l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        else {
            continue;
        };
        let mut texts = vec![f.tail.as_str()];
        let rest = &f.body[k + 1..];
        for s in rest {
            s.texts(&mut texts);
        }
        // A checkpointed loop saves its state whole: a `Vec` there is an error.
        let checkpointed = rest.iter().any(|s| {
            s.any(&|s| {
                matches!(
                    s,
                    Stmt::For {
                        checkpoint: Some(_),
                        ..
                    }
                ) && s.mentions(name)
            })
        });
        if checkpointed || !texts.iter().all(|t| indexed_only(t, name)) || !rng.gen_bool(0.5) {
            continue;
        }
        // Typed one way or the other, as rustc needs when only methods read an element.
        let annotate = rng.gen_bool(0.5);
        let vec = if annotate {
            format!("vec![0.0; {len}]")
        } else {
            format!("vec![0.0_$F; {len}]")
        };
        if let Stmt::Let { value, ty, .. } = &mut f.body[k] {
            *value = vec;
            *ty = annotate.then(|| "Vec<$F>".to_string());
        }
        any = true;
    }
    any
}

/// Whether every occurrence of the word `name` in `text` is indexed (`name[`).
fn indexed_only(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut rest = text;
    let mut before: Option<char> = None;
    while let Some(at) = rest.find(name) {
        let prev = rest[..at].chars().last().or(before);
        let after = rest[at + name.len()..].chars().next();
        let is_word = !prev.is_some_and(word) && !after.is_some_and(word);
        if is_word && after != Some('[') {
            return false;
        }
        // A sub-slice (`h1[2..]`, `h1[..k]`) is not an element: a `Vec` local is read by element
        // only.
        if is_word && range_follows(&rest[at + name.len()..]) {
            return false;
        }
        before = rest[..at + name.len()].chars().last();
        rest = &rest[at + name.len()..];
    }
    true
}

/// Whether the bracket `text` starts with (`[..]`, brackets inside it counted) holds a range.
fn range_follows(text: &str) -> bool {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return text[..i].contains("..");
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::indexed_only;

    #[test]
    fn only_indexed_uses_count() {
        assert!(indexed_only("h1[0] + h12 * xh1 + h1[i]", "h1"));
        assert!(!indexed_only("h1[0] + g(&h1)", "h1"));
        assert!(!indexed_only("h1.iter().sum()", "h1"));
        assert!(!indexed_only("h1", "h1"));
        assert!(!indexed_only("h1[0] + h1[2..].iter().sum()", "h1"));
        assert!(indexed_only("h1[a[0]] + h1[i + 1]", "h1"));
    }
}
