//! The IDX reader on arbitrary bytes: it must return a `DataError` or an array whose dimensions
//! match its values, never panic or allocate more than the input implies.
#![no_main]

use autodiff_runtime::data::parse_idx;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(array) = parse_idx(data, "fuzz.idx") {
        let count: usize = array.dims.iter().product();
        assert_eq!(array.len(), count);
        assert!(array.len() <= data.len());
        assert_eq!(array.to_f32().len(), count);
    }
});
