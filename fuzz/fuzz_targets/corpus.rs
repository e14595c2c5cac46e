//! The character corpus on arbitrary bytes: UTF-8 text is a corpus that encodes and decodes back
//! to it (or `DataErrorKind::Empty`), other bytes are `DataErrorKind::InvalidUtf8` with the line
//! and column of the first bad byte (lines end at `\n`, `\r\n` or a lone `\r`: the oracle the
//! stable fuzz test uses); never a panic.
#![no_main]

use autodiff_runtime::data::{CharCorpus, DataErrorKind};
use libfuzzer_sys::fuzz_target;

/// The stable fuzz test's oracle: the same place for the same bytes.
#[path = "../../autodiff-runtime/tests/fuzz_oracle/mod.rs"]
mod fuzz_oracle;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        // Bytes reach the corpus only through a file.
        let path = std::env::temp_dir().join(format!("corpus-fuzz-{}.txt", std::process::id()));
        std::fs::write(&path, data).unwrap();
        let err = CharCorpus::read(&path).unwrap_err();
        let (line, column) = fuzz_oracle::utf8_error_place(data).unwrap();
        assert!(matches!(err.kind, DataErrorKind::InvalidUtf8), "{err}");
        assert_eq!((err.line, err.column), (Some(line), Some(column)), "{err}");
        return;
    };
    match CharCorpus::from_text(text, "fuzz.txt") {
        Ok(corpus) => {
            assert!(corpus.vocab().windows(2).all(|w| w[0] < w[1]));
            assert_eq!(corpus.tokens().len(), text.chars().count());
            assert_eq!(corpus.encode(text).unwrap(), corpus.tokens());
            assert_eq!(corpus.decode(corpus.tokens()).unwrap(), text);
            let (train, val) = corpus.split(0.9);
            assert_eq!(train.len() + val.len(), corpus.tokens().len());
        }
        Err(err) => assert!(
            matches!(
                err.kind,
                DataErrorKind::Empty | DataErrorKind::VocabTooLarge(_)
            ),
            "{err}"
        ),
    }
});
