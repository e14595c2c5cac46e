//! The guide's excerpts of generated code (docs/guide.md, the README's long form) are checked
//! against the golden expansions they quote, so they cannot drift from what the macro generates.

use std::path::Path;

/// The text with every run of whitespace made one space: the excerpts may wrap lines
/// differently from the formatted goldens.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn expansion_excerpts_are_in_their_goldens() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("docs/guide.md")).unwrap();
    let marker = "<!-- excerpt of ";
    let mut checked = 0;
    for (at, _) in readme.match_indices(marker) {
        let rest = &readme[at + marker.len()..];
        let golden = &rest[..rest.find(" -->").expect("a closed marker")];
        let block = rest
            .split_once("```rust\n")
            .and_then(|(_, b)| b.split_once("\n```"))
            .map(|(b, _)| b)
            .expect("a rust block after the marker");
        let expanded = squeeze(
            &std::fs::read_to_string(root.join(golden)).unwrap_or_else(|e| panic!("{golden}: {e}")),
        );
        // Items are quoted whole, separated by blank lines, in the golden's order (the
        // golden's other items between them are left out).
        let mut from = 0;
        for chunk in block.split("\n\n") {
            let chunk = squeeze(chunk);
            let found = expanded[from..].find(&chunk).unwrap_or_else(|| {
                panic!(
                    "The guide's excerpt of {golden} differs from the golden expansion; update docs/guide.md from it. Not found (in order):\n{chunk}"
                )
            });
            from += found + chunk.len();
        }
        checked += 1;
    }
    assert!(
        checked >= 2,
        "expected at least 2 excerpts, found {checked}"
    );
}
