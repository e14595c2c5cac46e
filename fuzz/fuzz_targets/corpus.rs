//! The character corpus on arbitrary bytes: UTF-8 text is a corpus that encodes and decodes back
//! to it (or `DataErrorKind::Empty`), other bytes are `DataErrorKind::InvalidUtf8` with the line
//! of the first bad byte; never a panic.
#![no_main]

use autodiff_runtime::data::{CharCorpus, DataErrorKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        // Bytes reach the corpus only through a file.
        let path = std::env::temp_dir().join(format!("corpus-fuzz-{}.txt", std::process::id()));
        std::fs::write(&path, data).unwrap();
        let err = CharCorpus::read(&path).unwrap_err();
        let valid = core::str::from_utf8(data).unwrap_err().valid_up_to();
        let line = data[..valid].iter().filter(|b| **b == b'\n').count() as u64 + 1;
        assert!(matches!(err.kind, DataErrorKind::InvalidUtf8), "{err}");
        assert_eq!(err.line, Some(line));
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
