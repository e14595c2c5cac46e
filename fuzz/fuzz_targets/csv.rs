//! The CSV reader on arbitrary bytes: it must return a `DataError` or a consistent table, never
//! panic. The first byte picks the options.
#![no_main]

use autodiff_runtime::data::{CsvOptions, LabelColumn, parse_csv};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, text)) = data.split_first() else {
        return;
    };
    let options = CsvOptions {
        has_header: flags & 1 != 0,
        label: if flags & 2 != 0 {
            LabelColumn::Index(usize::from(flags >> 2) % 4)
        } else {
            LabelColumn::Last
        },
        num_classes: (flags & 0x40 != 0).then_some(3),
        delimiter: if flags & 0x80 != 0 { b';' } else { b',' },
    };
    if let Ok(table) = parse_csv(text, "fuzz.csv", &options) {
        assert!(!table.is_empty());
        assert_eq!(table.features.len(), table.len() * table.n_features);
        assert!(table.features.iter().all(|x| x.is_finite()));
        assert!(table.labels.iter().all(|&l| l < table.n_classes));
    }
});
